import { describe, expect, it } from 'vitest';
import { createRateLimiter, type LimiterClock } from '../dvla/rate-limit.js';
import { createDavisClient } from './client.js';
import type { DavisDriverIn } from './provider.js';
import { AWAITING_DAYS, createDavisService, createDavisSimulator, DQ3_DAYS } from './simulator.js';

const DAY = 24 * 60 * 60 * 1000;
const signal = new AbortController().signal;

function clocks(start = Date.parse('2026-11-27T10:00:00Z')) {
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
    dayMs: DAY,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const driver = (licence_number: string, reference = `ref-${licence_number}`): DavisDriverIn => ({
  reference,
  licence_number,
  forename: 'Ada',
  surname: 'Morgan',
  dob: '1975-03-11',
  email: 'ada@example.com',
  mandate_date: '2026-11-20',
});

describe('the licence check simulator', () => {
  it('registers once per reference, awaits the DVLA, then answers the check', async () => {
    const sim = createDavisSimulator(clocks());
    const first = await sim.register(driver('MORGA753116SM9IJ'), signal);
    expect(first).toMatchObject({ driver_id: 'DV-1', status: 'AwaitingCheck', licence: null });
    expect((await sim.register(driver('MORGA753116SM9IJ'), signal)).driver_id).toBe('DV-1');
    const checked = await sim.check('DV-1', signal);
    expect(checked).toMatchObject({
      status: 'Checked',
      checked_at: '2026-11-27',
      licence: { number: 'MORGA753116SM9IJ', status: 'Valid' },
      endorsements: [],
    });
    expect(checked.entitlements.map((e) => e.category)).toEqual(['B', 'A']);
    await expect(sim.check('DV-9', signal)).rejects.toMatchObject({ status: 404 });
  });

  it('keeps AWAIT awaiting for two days and MANUA at DQ3 for ten', async () => {
    const c = clocks();
    const sim = createDavisSimulator(c);
    const a = await sim.register(driver('AWAIT753116SM9IJ'), signal);
    const m = await sim.register(driver('MANUA753116SM9IJ'), signal);
    expect([a.status, m.status]).toEqual(['AwaitingCheck', 'DQ3']);
    c.advance(AWAITING_DAYS * DAY);
    expect((await sim.check(a.driver_id, signal)).status).toBe('Checked');
    expect((await sim.check(m.driver_id, signal)).status).toBe('DQ3');
    c.advance((DQ3_DAYS - AWAITING_DAYS) * DAY);
    expect(await sim.check(m.driver_id, signal)).toMatchObject({
      status: 'Checked',
      checked_at: '2026-12-07',
    });
  });

  it('waits for the email confirmation of UNCON, then checks', async () => {
    const sim = createDavisSimulator(clocks());
    const u = await sim.register(driver('UNCON753116SM9IJ'), signal);
    expect(u.status).toBe('EmailUnconfirmed');
    expect((await sim.check(u.driver_id, signal)).status).toBe('EmailUnconfirmed');
    expect((await sim.confirmEmail(u.driver_id, 'new@example.com', signal)).status).toBe(
      'AwaitingCheck',
    );
    expect((await sim.check(u.driver_id, signal)).status).toBe('Checked');
  });

  it('finds endorsements (ENDOR), a disqualification (DISQU), no licence (NOTFO)', async () => {
    const sim = createDavisSimulator(clocks());
    const e = await sim.register(driver('ENDOR753116SM9IJ'), signal);
    expect((await sim.check(e.driver_id, signal)).endorsements.map((x) => x.code)).toEqual([
      'SP30',
      'ZZ99',
    ]);
    const d = await sim.register(driver('DISQU753116SM9IJ'), signal);
    expect((await sim.check(d.driver_id, signal)).licence?.status).toBe('Disqualified');
    expect((await sim.register(driver('NOTFO753116SM9IJ'), signal)).status).toBe('NotFound');
  });

  it('adds an endorsement at each re-check of CHANG; others stay the same', async () => {
    const c = clocks();
    const sim = createDavisSimulator(c);
    const ch = await sim.register(driver('CHANG753116SM9IJ'), signal);
    expect((await sim.check(ch.driver_id, signal)).endorsements).toEqual([]);
    c.advance(DAY);
    const again = await sim.recheck(ch.driver_id, signal);
    expect(again.checked_at).toBe('2026-11-28');
    expect(again.endorsements.map((x) => x.code)).toEqual(['SP30']);
    const same = await sim.register(driver('MORGA753116SM9IJ'), signal);
    await sim.check(same.driver_id, signal);
    expect((await sim.recheck(same.driver_id, signal)).endorsements).toEqual([]);
  });

  it('fails FAILO once, refuses a bad number, waits out RATEL 429s and its own past 10 a second', async () => {
    const c = clocks();
    const service = createDavisService(c);
    const sim = createDavisSimulator({ ...c, service });
    await expect(sim.register(driver('FAILO753116SM9IJ'), signal)).rejects.toMatchObject({
      retryable: true,
      status: 503,
    });
    expect((await sim.register(driver('FAILO753116SM9IJ'), signal)).status).toBe('AwaitingCheck');
    await expect(sim.register(driver('bad!'), signal)).rejects.toMatchObject({
      retryable: false,
      status: 400,
    });
    expect((await sim.register(driver('RATEL753116SM9IJ'), signal)).status).toBe('AwaitingCheck');
    expect(service.counts.tooMany).toBe(2);
    const burst = createDavisService(c);
    for (let i = 0; i < 10; i++) await burst.register(driver('MORGA753116SM9IJ', `b${i}`));
    await expect(burst.register(driver('MORGA753116SM9IJ', 'b10'))).rejects.toMatchObject({
      name: 'RateLimited',
    });
    const limiter = createRateLimiter(10, c.limiterClock);
    const spread = createDavisSimulator({ ...c, service: createDavisService(c), limiter });
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        spread.register(driver('MORGA753116SM9IJ', `s${i}`), signal),
      ),
    );
    expect(limiter.stats).toEqual({ calls: 25, limited: 0 });
  });
});

describe('the licence check client', () => {
  it('speaks the REST shape with the bearer key, and reads 429, 4xx and 5xx', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const answers = [
      new Response(JSON.stringify({ driver_id: 'DV-1', status: 'AwaitingCheck' }), { status: 201 }),
      new Response('{}', { status: 429, headers: { 'retry-after': '0' } }),
      new Response(JSON.stringify({ driver_id: 'DV-1', status: 'Checked' }), { status: 200 }),
      new Response(JSON.stringify({ driver_id: 'DV-1', status: 'Checked' }), { status: 200 }),
      new Response(JSON.stringify({ driver_id: 'DV-1', status: 'AwaitingCheck' }), { status: 200 }),
      new Response('{}', { status: 404 }),
      new Response('{}', { status: 502 }),
    ];
    const c = clocks();
    const client = createDavisClient({
      baseUrl: 'https://davis.test/',
      apiKey: 'k',
      limiter: createRateLimiter(10, c.limiterClock),
      fetch: async (url, init) => {
        calls.push({ url: String(url), init: init ?? {} });
        const next = answers.shift();
        if (!next) throw new Error('offline');
        return next;
      },
    });
    const d = driver('MORGA753116SM9IJ');
    expect((await client.register(d, signal)).status).toBe('AwaitingCheck');
    expect(calls[0]).toMatchObject({
      url: 'https://davis.test/v1/drivers',
      init: {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'idempotency-key': d.reference },
      },
    });
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual(d);
    expect((await client.check('DV-1', signal)).status).toBe('Checked');
    expect(calls[2]?.url).toBe('https://davis.test/v1/drivers/DV-1/check');
    await client.recheck('DV-1', signal);
    expect(calls[3]).toMatchObject({
      url: 'https://davis.test/v1/drivers/DV-1/checks',
      init: { method: 'POST' },
    });
    await client.confirmEmail('DV-1', 'a@b.co', signal);
    expect(calls[4]).toMatchObject({
      url: 'https://davis.test/v1/drivers/DV-1/email',
      init: { method: 'PUT' },
    });
    expect(JSON.parse(String(calls[4]?.init.body))).toEqual({ email: 'a@b.co' });
    await expect(client.check('DV-2', signal)).rejects.toMatchObject({
      retryable: false,
      status: 404,
    });
    await expect(client.check('DV-2', signal)).rejects.toMatchObject({
      retryable: true,
      status: 502,
    });
    await expect(client.check('DV-2', signal)).rejects.toMatchObject({ retryable: true });
  });
});
