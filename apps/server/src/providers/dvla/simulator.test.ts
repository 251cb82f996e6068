import { describe, expect, it } from 'vitest';
import { ProviderError } from '../errors.js';
import { createDvlaClient } from './client.js';
import type { DriverEnquiry } from './provider.js';
import {
  createRateLimiter,
  type LimiterClock,
  limited,
  RATE_WINDOW_MARGIN_MS,
  RateLimited,
  retryAfterMs,
} from './rate-limit.js';
import { createDvlaService, createDvlaSimulator, SUPPRESSED_DAYS } from './simulator.js';

const DAY = 24 * 60 * 60 * 1000;
const enquiry = (number: string, extra: Partial<DriverEnquiry> = {}): DriverEnquiry => ({
  drivingLicenceNumber: number,
  includeCPC: false,
  includeTacho: false,
  acceptPartialResponse: false,
  ...extra,
});

/** A clock moved by hand; `sleep` moves it (nothing waits for real). */
function manualClocks(start = Date.parse('2026-11-27T10:00:00Z')) {
  let t = start;
  const limiterClock: LimiterClock = {
    now: () => t,
    sleep: async (ms) => {
      t += ms;
    },
  };
  return {
    clock: { now: () => new Date(t) },
    limiterClock,
    advance: (ms: number) => {
      t += ms;
    },
    now: () => t,
  };
}

const signal = new AbortController().signal;

describe('the DVLA simulator', () => {
  it('answers a clean record decoded from the licence number, CPC and tacho when asked', async () => {
    const c = manualClocks();
    const sim = createDvlaSimulator(c);
    const a = await sim.retrieve(enquiry('MORGA657054SM9IJ'), signal);
    expect(a.found).toBe(true);
    if (!a.found) return;
    expect(a.record.driver).toMatchObject({
      lastName: 'MORGA',
      gender: 'Female',
      dateOfBirth: '1964-07-05',
    });
    expect(a.record.licence).toEqual({ type: 'Full', status: 'Valid' });
    expect(a.record.endorsements).toEqual([]);
    expect(a.record.cpc).toBeUndefined();
    expect(a.record.tachoCards).toBeUndefined();
    const full = await sim.retrieve(
      enquiry('MORGA753116SM9IJ', { includeCPC: true, includeTacho: true }),
      signal,
    );
    if (!full.found) throw new Error('a record');
    expect(full.record.driver.dateOfBirth).toBe('1976-03-11');
    expect(full.record.cpc?.cpcs).toHaveLength(1);
    expect(full.record.holder?.dqc?.dqcs).toHaveLength(1);
    expect(full.record.tachoCards).toHaveLength(1);
  });

  it('answers ENQ018 for NOREC, endorsements for ENDOR, a disqualification for DISQU', async () => {
    const sim = createDvlaSimulator(manualClocks());
    expect(await sim.retrieve(enquiry('NOREC801010A99AA'), signal)).toEqual({
      found: false,
      code: 'ENQ018',
      detail: 'Driver number not found',
    });
    const e = await sim.retrieve(enquiry('ENDOR801010A99AA'), signal);
    if (!e.found) throw new Error('a record');
    expect(e.record.endorsements?.map((x) => x.offenceCode)).toEqual(['SP30', 'CU80', 'ZZ99']);
    const d = await sim.retrieve(enquiry('DISQU801010A99AA'), signal);
    if (!d.found) throw new Error('a record');
    expect(d.record.licence.status).toBe('Disqualified');
    expect(d.record.endorsements?.[0]?.offenceCode).toBe('DR10');
  });

  it('keeps SUPPR suppressed (ENQ037) for two simulated days from its first enquiry', async () => {
    const c = manualClocks();
    const sim = createDvlaSimulator({ ...c, dayMs: DAY });
    expect(await sim.retrieve(enquiry('SUPPR801010A99AA'), signal)).toMatchObject({
      found: false,
      code: 'ENQ037',
    });
    c.advance(SUPPRESSED_DAYS * DAY - 60_000);
    expect((await sim.retrieve(enquiry('SUPPR801010A99AA'), signal)).found).toBe(false);
    c.advance(60_000);
    expect((await sim.retrieve(enquiry('SUPPR801010A99AA'), signal)).found).toBe(true);
  });

  it('fails FAILO once (retryable), refuses BADRQ (not retryable), never answers SLOWW', async () => {
    const sim = createDvlaSimulator(manualClocks());
    await expect(sim.retrieve(enquiry('FAILO801010A99AA'), signal)).rejects.toMatchObject({
      retryable: true,
      status: 503,
    });
    expect((await sim.retrieve(enquiry('FAILO801010A99AA'), signal)).found).toBe(true);
    await expect(sim.retrieve(enquiry('BADRQ801010A99AA'), signal)).rejects.toMatchObject({
      retryable: false,
      status: 400,
    });
    const ctl = new AbortController();
    const slow = sim.retrieve(enquiry('SLOWW801010A99AA'), ctl.signal);
    ctl.abort();
    await expect(slow).rejects.toBeInstanceOf(ProviderError);
  });

  it('answers RATEL 429 twice, which the engine side waits out: the caller gets the record', async () => {
    const c = manualClocks();
    const service = createDvlaService(c);
    const sim = createDvlaSimulator({ ...c, service });
    const a = await sim.retrieve(enquiry('RATEL801010A99AA'), signal);
    expect(a.found).toBe(true);
    expect(service.counts).toEqual({ requests: 3, tooMany: 2 });
    expect(c.now()).toBe(Date.parse('2026-11-27T10:00:02Z'));
  });

  it('answers 429 past 10 requests a second, and the limiter keeps below it', async () => {
    const c = manualClocks();
    const service = createDvlaService(c);
    for (let i = 0; i < 10; i++) await service.retrieve(enquiry('MORGA753116SM9IJ'), signal);
    await expect(service.retrieve(enquiry('MORGA753116SM9IJ'), signal)).rejects.toBeInstanceOf(
      RateLimited,
    );
    c.advance(1000);
    const limiter = createRateLimiter(10, c.limiterClock);
    const sim = createDvlaSimulator({ ...c, service, limiter });
    const start = c.now();
    await Promise.all(
      Array.from({ length: 35 }, () => sim.retrieve(enquiry('MORGA753116SM9IJ'), signal)),
    );
    expect(service.counts.tooMany).toBe(1);
    expect(limiter.stats).toEqual({ calls: 35, limited: 0 });
    // 35 calls at 10 a second: the last goes in the fourth second (each second and its margin)
    expect(c.now() - start).toBe(3 * (1000 + RATE_WINDOW_MARGIN_MS));
  });
});

describe('the rate limiter', () => {
  it('spaces each call a second and a margin after the call ten places earlier', async () => {
    // the provider counts a request when it arrives: a few milliseconds on the way must not put
    // an eleventh request in its second (the drain bench saw 429s under load without it)
    const c = manualClocks();
    const limiter = createRateLimiter(10, c.limiterClock);
    const start = c.now();
    for (let i = 0; i < 10; i++) await limiter.acquire(signal);
    expect(c.now()).toBe(start);
    await limiter.acquire(signal);
    expect(c.now() - start).toBe(1000 + RATE_WINDOW_MARGIN_MS);
    expect(RATE_WINDOW_MARGIN_MS).toBeGreaterThanOrEqual(50);
  });

  it('gives up on abort while it waits', async () => {
    const limiter = createRateLimiter(1);
    await limiter.acquire(signal);
    const ctl = new AbortController();
    const waiting = limiter.acquire(ctl.signal);
    ctl.abort();
    await expect(waiting).rejects.toMatchObject({ retryable: true });
    await expect(limited(limiter, AbortSignal.abort(), async () => 1)).rejects.toBeInstanceOf(
      ProviderError,
    );
  });

  it('reads Retry-After in seconds or as a date', () => {
    expect(retryAfterMs(null)).toBe(1000);
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs('Fri, 27 Nov 2026 10:00:03 GMT', Date.parse('2026-11-27T10:00:00Z'))).toBe(
      3000,
    );
    expect(retryAfterMs('soon')).toBe(1000);
  });
});

describe('the DVLA client', () => {
  type Call = { url: string; init: RequestInit };
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });

  function client(answers: Response[]) {
    const calls: Call[] = [];
    const c = manualClocks();
    const dvla = createDvlaClient({
      baseUrl: 'https://dvla.test/',
      apiKey: 'key-1',
      username: 'user',
      password: 'pw',
      limiter: createRateLimiter(10, c.limiterClock),
      fetch: async (url, init) => {
        calls.push({ url: String(url), init: init ?? {} });
        const next = answers.shift();
        if (!next) throw new Error('no answer');
        return next;
      },
    });
    return { dvla, calls };
  }

  it('authenticates, then posts the enquiry with the JWT and the API key, the number in the body', async () => {
    const record = {
      driver: { drivingLicenceNumber: 'MORGA753116SM9IJ' },
      licence: { status: 'Valid' },
    };
    const { dvla, calls } = client([json(200, { 'id-token': 'jwt-1' }), json(200, record)]);
    expect(await dvla.retrieve(enquiry('MORGA753116SM9IJ', { includeCPC: true }), signal)).toEqual({
      found: true,
      record,
    });
    expect(calls[0]?.url).toBe('https://dvla.test/thirdparty-access/v1/authenticate');
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ userName: 'user', password: 'pw' });
    expect(calls[1]?.url).toBe(
      'https://dvla.test/full-driver-enquiry/v1/driving-licences/retrieve',
    );
    expect(calls[1]?.init.method).toBe('POST');
    expect(calls[1]?.init.headers).toMatchObject({ authorization: 'jwt-1', 'x-api-key': 'key-1' });
    expect(JSON.parse(String(calls[1]?.init.body))).toEqual({
      drivingLicenceNumber: 'MORGA753116SM9IJ',
      includeCPC: true,
      includeTacho: false,
      acceptPartialResponse: false,
    });
    expect(calls.every((c) => !c.url.includes('MORGA'))).toBe(true);
  });

  it('reads 404 ENQ018 and ENQ037 as answers, re-authenticates once on 401, waits out 429', async () => {
    const { dvla, calls } = client([
      json(200, { 'id-token': 'jwt-1' }),
      json(401, {}),
      json(200, { 'id-token': 'jwt-2' }),
      json(404, { errors: [{ status: '404', code: 'ENQ018', detail: 'Record not found' }] }),
      json(429, {}, { 'retry-after': '1' }),
      json(403, { errors: [{ status: '403', code: 'ENQ037', detail: 'Suppressed' }] }),
    ]);
    expect(await dvla.retrieve(enquiry('NOREC801010A99AA'), signal)).toEqual({
      found: false,
      code: 'ENQ018',
      detail: 'Record not found',
    });
    expect(calls[3]?.init.headers).toMatchObject({ authorization: 'jwt-2' });
    expect(await dvla.retrieve(enquiry('SUPPR801010A99AA'), signal)).toMatchObject({
      found: false,
      code: 'ENQ037',
    });
  });

  it('refuses 400 and 403 (not retryable), retries 5xx and no answer', async () => {
    const { dvla } = client([
      json(200, { 'id-token': 'jwt-1' }),
      json(400, { errors: [{ code: 'ENQ001' }] }),
      json(503, {}),
    ]);
    await expect(dvla.retrieve(enquiry('BADRQ801010A99AA'), signal)).rejects.toMatchObject({
      retryable: false,
      status: 400,
    });
    await expect(dvla.retrieve(enquiry('MORGA753116SM9IJ'), signal)).rejects.toMatchObject({
      retryable: true,
      status: 503,
    });
    await expect(dvla.retrieve(enquiry('MORGA753116SM9IJ'), signal)).rejects.toMatchObject({
      retryable: true,
    });
    const failing = client([json(401, {})]);
    await expect(failing.dvla.retrieve(enquiry('MORGA753116SM9IJ'), signal)).rejects.toMatchObject({
      retryable: false,
      status: 401,
    });
  });
});
