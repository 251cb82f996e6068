import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { ProviderError } from '../errors.js';
import { createHomeOfficeRtwClient } from './client.js';
import type { RtwShareCodeQuery } from './provider.js';
import { createHomeOfficeRtwSimulator } from './simulator.js';

const query = (share_code: string): RtwShareCodeQuery => ({
  share_code,
  date_of_birth: '1990-04-02',
  company_name: 'Acme',
  applicant: { forename: 'Priya', surname: 'Shah' },
});
const signal = () => AbortSignal.timeout(1000);

function sim() {
  return createHomeOfficeRtwSimulator({ clock: new ManualClock('2026-11-24T10:00:00Z') });
}

describe('the Home Office share-code simulator', () => {
  it('answers a permanent right by default, with the applicant, a photo and a reference', async () => {
    const a = await sim().checkShareCode(query('W12345678'), signal());
    expect(a).toMatchObject({
      status: 'permanent',
      forename: 'Priya',
      surname: 'Shah',
      date_of_birth: '1990-04-02',
      conditions: [],
      expiry_date: null,
    });
    expect(a.check_reference).toMatch(/^RTW-[0-9A-F]{10}$/);
    expect(a.photo).toMatch(/^data:image\/svg\+xml;base64,/);
    // deterministic: the same question, the same answer
    expect(await sim().checkShareCode(query('W12345678'), signal())).toEqual(a);
  });

  it('gives a time-limited right ending a year after the check, with its conditions', async () => {
    const a = await sim().checkShareCode(query('WTL345678'), signal());
    expect(a).toMatchObject({ status: 'time-limited', expiry_date: '2027-11-24' });
    expect(a.conditions.length).toBe(2);
  });

  it('gives no right to work, and no profile found', async () => {
    expect((await sim().checkShareCode(query('WNR345678'), signal())).status).toBe('no-right');
    const nf = await sim().checkShareCode(query('WNF345678'), signal());
    expect(nf).toMatchObject({ status: 'not-found', forename: null, photo: null });
  });

  it('fails once with a retryable 503 for WER, then answers', async () => {
    const s = sim();
    await expect(s.checkShareCode(query('WER345678'), signal())).rejects.toMatchObject({
      retryable: true,
      status: 503,
    });
    expect((await s.checkShareCode(query('WER345678'), signal())).status).toBe('permanent');
  });

  it('times out for WTO, and refuses a malformed share code (400, not retried)', async () => {
    const c = new AbortController();
    const pending = sim().checkShareCode(query('WTO345678'), c.signal);
    c.abort();
    await expect(pending).rejects.toMatchObject({ retryable: true });
    await expect(sim().checkShareCode(query('X12345678'), signal())).rejects.toMatchObject({
      retryable: false,
      status: 400,
    });
  });
});

describe('the real client', () => {
  it('posts the share code and reads the profile', async () => {
    const calls: { url: string; init: RequestInit | undefined }[] = [];
    const answers = [
      {
        checkReference: 'HO-1',
        outcome: 'FOUND',
        profile: {
          givenNames: 'Priya',
          familyName: 'Shah',
          nationality: 'Indian',
          dateOfBirth: '1990-04-02',
          photo: 'AAAA',
          status: 'TIME_LIMITED',
          statusText: 'Until 2027',
          conditions: ['Sponsor only'],
          expiryDate: '2027-01-01',
        },
      },
      { checkReference: 'HO-2', outcome: 'NOT_FOUND' },
    ];
    const client = createHomeOfficeRtwClient({
      baseUrl: 'https://ho.example/',
      apiKey: 'key',
      fetch: async (url, init) => {
        calls.push({ url: String(url), init });
        return new Response(JSON.stringify(answers.shift()), { status: 200 });
      },
    });
    const a = await client.checkShareCode(query('W12345678'), signal());
    expect(a).toMatchObject({
      status: 'time-limited',
      check_reference: 'HO-1',
      photo: 'data:image/jpeg;base64,AAAA',
      expiry_date: '2027-01-01',
    });
    expect(calls[0]?.url).toBe('https://ho.example/v1/right-to-work/checks');
    expect(new Headers(calls[0]?.init?.headers).get('x-api-key')).toBe('key');
    // the applicant's names are the simulator's only: never sent
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({
      shareCode: 'W12345678',
      dateOfBirth: '1990-04-02',
      companyName: 'Acme',
    });
    expect((await client.checkShareCode(query('W12345678'), signal())).status).toBe('not-found');
    const down = createHomeOfficeRtwClient({
      baseUrl: 'https://ho.example',
      apiKey: 'key',
      fetch: async () => new Response('', { status: 503 }),
    });
    const err = await down.checkShareCode(query('W12345678'), signal()).catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ retryable: true, status: 503 });
  });
});
