import { createHash } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import { aborted, ProviderError } from '../errors.js';
import { notFound } from './client.js';
import type { HomeOfficeRtwProvider, RtwShareCodeAnswer } from './provider.js';

/*
 * A deterministic Home Office share-code check (the default): the share code's second and third
 * characters decide (README.md): TL a time-limited right ending a year after the check, NR no
 * right to work, NF no profile found, ER an outage (503) the first time that share code is asked
 * about and then a permanent right, TO no answer (a timeout); anything else a permanent right.
 * The names are the applicant's Kestrel sends; the photo a drawn silhouette with their initials.
 */

export const RTW_SIMULATOR_CODES = {
  timeLimited: 'TL',
  noRight: 'NR',
  notFound: 'NF',
  errorOnce: 'ER',
  timeout: 'TO',
} as const;

/** The silhouette photo the simulator gives (small: an SVG, not a real photograph). */
export function simulatedPhoto(initials: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 75"><rect width="60" height="75" fill="#d9e2e8"/><circle cx="30" cy="28" r="14" fill="#7d8f9b"/><path d="M6 75c2-18 12-26 24-26s22 8 24 26z" fill="#7d8f9b"/><text x="30" y="33" font-family="sans-serif" font-size="11" text-anchor="middle" fill="#fff">${initials.replace(/[^A-Z]/g, '')}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

export function createHomeOfficeRtwSimulator(opts: { clock: Clock }): HomeOfficeRtwProvider {
  const failedOnce = new Set<string>();
  return {
    async checkShareCode(q, signal): Promise<RtwShareCodeAnswer> {
      const code = q.share_code.toUpperCase();
      if (!/^W[A-Z0-9]{8}$/.test(code) || !/^\d{4}-\d{2}-\d{2}$/.test(q.date_of_birth)) {
        throw new ProviderError('The Home Office answered 400.', false, 400);
      }
      const kind = code.slice(1, 3);
      if (kind === RTW_SIMULATOR_CODES.timeout) return aborted(signal);
      if (kind === RTW_SIMULATOR_CODES.errorOnce && !failedOnce.has(code)) {
        failedOnce.add(code);
        throw new ProviderError('The Home Office answered 503.', true, 503);
      }
      const reference = `RTW-${createHash('sha256').update(`${code}:${q.date_of_birth}`).digest('hex').slice(0, 10).toUpperCase()}`;
      if (kind === RTW_SIMULATOR_CODES.notFound) return notFound(reference);
      const forename = q.applicant?.forename || 'Alex';
      const surname = q.applicant?.surname || 'Simulated';
      const now = opts.clock.now();
      const person = {
        check_reference: reference,
        forename,
        surname,
        date_of_birth: q.date_of_birth,
        photo: simulatedPhoto(`${forename.charAt(0)}${surname.charAt(0)}`.toUpperCase()),
      };
      if (kind === RTW_SIMULATOR_CODES.noRight) {
        return {
          ...person,
          status: 'no-right',
          nationality: 'Simulated Republic',
          status_text: 'This person does not have permission to work in the UK.',
          conditions: [],
          expiry_date: null,
        };
      }
      if (kind === RTW_SIMULATOR_CODES.timeLimited) {
        const end = new Date(now.getTime());
        end.setUTCFullYear(end.getUTCFullYear() + 1);
        return {
          ...person,
          status: 'time-limited',
          nationality: 'Indian',
          status_text: 'This person can work in the UK until the date shown (Skilled Worker visa).',
          conditions: [
            'They can only work for the sponsor named on their visa.',
            'They can do up to 20 hours a week of additional work.',
          ],
          expiry_date: day(end),
        };
      }
      return {
        ...person,
        status: 'permanent',
        nationality: 'French',
        status_text:
          'This person has settled status under the EU Settlement Scheme and can work in the UK with no time limit.',
        conditions: [],
        expiry_date: null,
      };
    },
  };
}
