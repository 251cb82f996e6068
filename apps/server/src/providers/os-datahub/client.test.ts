import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { createOsDatahubClient, OS_DATAHUB_TOKEN_URL } from './client.js';
import { OsDatahubError } from './provider.js';

function fakeFetch(answers: Array<() => Response>) {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const fn: typeof fetch = async (input, init) => {
    calls.push({ url: String(input), init });
    const next = answers.shift();
    if (!next) throw new Error('unexpected call');
    return next();
  };
  return { fn, calls };
}
const ok = (token: string, expires: number | string) => () =>
  Response.json({ access_token: token, expires_in: expires, token_type: 'Bearer' });

describe('OS Data Hub token client', () => {
  it('asks with the client credentials and caches the token until shortly before it expires', async () => {
    const clock = new ManualClock(new Date('2026-11-24T09:00:00Z'));
    const { fn, calls } = fakeFetch([ok('t1', '299'), ok('t2', 299)]);
    const client = createOsDatahubClient({ key: 'k', secret: 's', clock, fetch: fn });
    expect(await client.token()).toEqual({ access_token: 't1', expires_in: 299 });
    expect(calls[0]?.url).toBe(OS_DATAHUB_TOKEN_URL);
    expect(calls[0]?.init?.method).toBe('POST');
    expect(new Headers(calls[0]?.init?.headers).get('authorization')).toBe(
      `Basic ${Buffer.from('k:s').toString('base64')}`,
    );
    expect(calls[0]?.init?.body).toBe('grant_type=client_credentials');
    clock.advance(200_000);
    expect(await client.token()).toEqual({ access_token: 't1', expires_in: 99 });
    expect(calls).toHaveLength(1);
    clock.advance(40_000); // 59 s left: inside the margin
    expect(await client.token()).toEqual({ access_token: 't2', expires_in: 299 });
    expect(calls).toHaveLength(2);
  });

  it('shares one request between concurrent callers', async () => {
    const clock = new ManualClock(new Date('2026-11-24T09:00:00Z'));
    const { fn, calls } = fakeFetch([ok('t1', 300)]);
    const client = createOsDatahubClient({ key: 'k', secret: 's', clock, fetch: fn });
    const [a, b] = await Promise.all([client.token(), client.token()]);
    expect(a).toEqual(b);
    expect(calls).toHaveLength(1);
  });

  it('fails with OsDatahubError on a refusal, a bad answer or no connection', async () => {
    const clock = new ManualClock(new Date('2026-11-24T09:00:00Z'));
    const { fn } = fakeFetch([
      () => new Response('no', { status: 401 }),
      () => Response.json({ expires_in: 10 }),
      () => {
        throw new TypeError('fetch failed');
      },
      ok('t', 300),
    ]);
    const client = createOsDatahubClient({ key: 'k', secret: 's', clock, fetch: fn });
    await expect(client.token()).rejects.toThrow(OsDatahubError);
    await expect(client.token()).rejects.toThrow(/unexpected answer/);
    await expect(client.token()).rejects.toThrow(/request failed/);
    expect((await client.token()).access_token).toBe('t');
  });
});
