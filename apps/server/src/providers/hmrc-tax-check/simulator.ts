import { ProviderError } from '../errors.js';
import {
  TAX_CHECK_VALID_DAYS,
  type TaxCheckAnswer,
  type TaxCheckProvider,
  type TaxCheckQuery,
} from './provider.js';

/*
 * A deterministic HMRC tax check (the default; README.md): the code decides.
 * - starts with `X`: HMRC does not know the code ('unknown');
 * - starts with `E`: the code was issued more than 120 days ago ('expired');
 * - starts with `Z`: HMRC's service fails (503, retryable);
 * - anything else of 9 letters and digits: valid, issued `n` days before today where `n` is the
 *   sum of its characters' codes modulo 100 (so it expires within 120 days).
 * A code that is not 9 letters and digits is a 400 (never sent: the contract refuses it).
 */

const DAY_MS = 86_400_000;
const shift = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const charSum = (code: string) => [...code].reduce((n, c) => n + c.charCodeAt(0), 0);

export function createTaxCheckSimulator(): TaxCheckProvider {
  return {
    async confirm(q: TaxCheckQuery): Promise<TaxCheckAnswer> {
      if (!/^[A-Z0-9]{9}$/.test(q.code)) {
        throw new ProviderError('HMRC answered 400.', false, 400);
      }
      const first = q.code.charAt(0);
      if (first === 'Z') throw new ProviderError('HMRC answered 503.', true, 503);
      if (first === 'X') return { outcome: 'unknown', issued_on: null, expires_on: null };
      const age =
        first === 'E' ? TAX_CHECK_VALID_DAYS + 1 + (charSum(q.code) % 60) : charSum(q.code) % 100;
      const issued = shift(q.today, -age);
      return {
        outcome: first === 'E' ? 'expired' : 'valid',
        issued_on: issued,
        expires_on: shift(issued, TAX_CHECK_VALID_DAYS),
      };
    },
  };
}

/** The provider in use: the simulator (a real client needs HMRC's credentials, not held here). */
let current: TaxCheckProvider = createTaxCheckSimulator();
export function taxCheckProvider(): TaxCheckProvider {
  return current;
}
/** Tests replace it (a failing HMRC); returns the previous one. */
export function useTaxCheckProvider(p: TaxCheckProvider): TaxCheckProvider {
  const before = current;
  current = p;
  return before;
}
