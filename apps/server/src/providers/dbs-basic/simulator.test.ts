import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { verifyWebhookSignature } from '../../platform/webhooks.js';
import type { DisclosureApplication } from './provider.js';
import { ProviderError } from './provider.js';
import { certificateSchedule, DisclosureSimulator, SIMULATED_TOP_UP } from './simulator.js';

const DAY = 24 * 60 * 60 * 1000;
const signal = () => new AbortController().signal;

function application(
  surname: string,
  more: Partial<DisclosureApplication> = {},
): DisclosureApplication {
  return {
    idempotency_key: `key-${surname}`,
    level: 'basic',
    callback_url: 'http://localhost/callbacks/checks/dbs-basic/1/',
    applicant: {
      title: 'Ms',
      forename: 'Ada',
      middlename: '',
      surname,
      dob: '1990-01-01',
      gender: 'female',
      email: 'ada@example.test',
      phone_number: '',
      nin: '',
      nationality: 'GBR',
      birth_town: 'Leeds',
      birth_country: 'GBR',
      current_address: '1 High Street, Leeds, LS1 1AA',
    },
    workforce: null,
    barred_lists: [],
    purpose: null,
    position: null,
    top_up_payment: null,
    identity_verification: {
      basis: 'documents',
      route: 1,
      verified_by: 'Vera Verifier',
      verified_at: '2026-11-20T09:00:00.000Z',
      countersigned_by: 'Colin Counter',
      countersigned_at: '2026-11-20T10:00:00.000Z',
    },
    provider_configuration: null,
    ...more,
  };
}

function basic() {
  const clock = new ManualClock('2026-03-02T09:00:00Z');
  return { clock, sim: new DisclosureSimulator({ name: 'dbs-basic', clock, callbackSecret: 's' }) };
}

describe('the basic disclosure simulator', () => {
  it('moves a clear application through its stages over simulated days', async () => {
    const { clock, sim } = basic();
    const first = await sim.submit(application('Smith'), signal());
    expect(first).toMatchObject({ status: 'in-progress', stage: 1, received_date: '2026-03-02' });
    clock.advance(DAY);
    expect(await sim.status(first.reference, signal())).toMatchObject({
      stage: 2,
      status: 'in-progress',
    });
    clock.advance(DAY);
    const done = await sim.status(first.reference, signal());
    expect(done).toMatchObject({ status: 'complete', stage: 5 });
    expect(done.disclosure).toMatchObject({ status: 'clear', issue_date: '2026-03-04' });
    expect(done.disclosure?.certificate_number).toMatch(/^\d{12}$/);
    expect(done.stages.filter((s) => s.status === 'not-applicable').map((s) => s.stage)).toEqual([
      3, 4,
    ]);
  });

  it('assembles the certificate the day before printing it and despatches it when printed', async () => {
    const { clock, sim } = basic();
    const first = await sim.submit(application('Smith'), signal());
    expect(first).toMatchObject({
      certificate_assembled_date: null,
      certificate_despatched_date: null,
    });
    clock.advance(DAY);
    expect(await sim.status(first.reference, signal())).toMatchObject({
      status: 'in-progress',
      certificate_assembled_date: '2026-03-03',
      certificate_despatched_date: null,
    });
    clock.advance(DAY);
    const done = await sim.status(first.reference, signal());
    expect(done).toMatchObject({
      status: 'complete',
      certificate_assembled_date: '2026-03-03',
      certificate_despatched_date: '2026-03-04',
    });
    // despatched the day the certificate is printed (stage 5), not a manual certificate
    expect(done.stages.find((s) => s.stage === 5)?.completed_date).toBe('2026-03-04');
    expect(done.disclosure?.manual_certificate).toBe(false);
    // later answers keep the same dates
    clock.advance(10 * DAY);
    expect(await sim.status(first.reference, signal())).toEqual(done);
  });

  it('schedules assembly after every search and despatch with the printing, at every level', () => {
    expect(certificateSchedule('basic', false)).toEqual({ assembled: 1, despatched: 2 });
    expect(certificateSchedule('standard', false)).toEqual({ assembled: 2, despatched: 3 });
    expect(certificateSchedule('standard', true)).toEqual({ assembled: 2, despatched: 3 });
    expect(certificateSchedule('enhanced', true)).toEqual({ assembled: 6, despatched: 7 });
  });

  it('issues a MANUAL applicant a clear manual certificate, its reference marked m', async () => {
    const { clock, sim } = basic();
    const first = await sim.submit(application('Manual-Issue'), signal());
    expect(first.reference).toMatch(/^BD-CBnm-[0-9a-z]+-\d{8}$/);
    expect(first.disclosure).toBeNull();
    clock.advance(2 * DAY);
    const done = await sim.status(first.reference, signal());
    expect(done).toMatchObject({
      status: 'complete',
      certificate_assembled_date: '2026-03-03',
      certificate_despatched_date: '2026-03-04',
    });
    expect(done.disclosure).toEqual({
      status: 'clear',
      certificate_number: expect.stringMatching(/^\d{12}$/),
      issue_date: '2026-03-04',
      manual_certificate: true,
    });
    // its signed callback says so too
    expect(JSON.parse(sim.callbackFor(first.reference, 'evt-m').body)).toMatchObject({
      disclosure: { manual_certificate: true },
      certificate_despatched_date: '2026-03-04',
    });
  });

  it('is deterministic: the same submission at the same time gives the same answer', async () => {
    const a = basic();
    const b = basic();
    expect(await a.sim.submit(application('Smith'), signal())).toEqual(
      await b.sim.submit(application('Smith'), signal()),
    );
  });

  it('holds records for RECORDS applicants and cancels CANCEL ones after a day', async () => {
    const { clock, sim } = basic();
    const r = await sim.submit(application('Records-Held'), signal());
    const c = await sim.submit(application('Cancelled'), signal());
    clock.advance(3 * DAY);
    expect((await sim.status(r.reference, signal())).disclosure?.status).toBe('records-held');
    expect(await sim.status(c.reference, signal())).toMatchObject({
      status: 'cancelled',
      disclosure: null,
      // a cancelled application's certificate is never assembled nor despatched
      certificate_assembled_date: null,
      certificate_despatched_date: null,
    });
    expect((await sim.status(r.reference, signal())).disclosure?.manual_certificate).toBe(false);
  });

  it('fails ERROR always, FLAKY once, and never answers TIMEOUT', async () => {
    const { sim } = basic();
    await expect(sim.submit(application('Error'), signal())).rejects.toMatchObject({
      retryable: true,
      status: 503,
    });
    await expect(sim.submit(application('Flaky'), signal())).rejects.toBeInstanceOf(ProviderError);
    expect((await sim.submit(application('Flaky'), signal())).status).toBe('in-progress');
    const timeout = new AbortController();
    const pending = sim.submit(application('Timeout'), timeout.signal);
    timeout.abort();
    await expect(pending).rejects.toMatchObject({ retryable: true });
  });

  it('demands a top-up of TOPUP applicants until a payment is named', async () => {
    const { sim } = basic();
    expect(await sim.submit(application('Topup'), signal())).toMatchObject({
      status: 'top-up-required',
      top_up: SIMULATED_TOP_UP,
    });
    expect(
      (await sim.submit(application('Topup', { top_up_payment: 'pi_1' }), signal())).status,
    ).toBe('in-progress');
  });

  it('refuses a standard check, and an unknown reference', async () => {
    const { sim } = basic();
    await expect(
      sim.submit(application('Smith', { level: 'standard' }), signal()),
    ).rejects.toMatchObject({
      retryable: false,
    });
    await expect(sim.status('EB-CSn-1-12345678', signal())).rejects.toMatchObject({ status: 404 });
  });

  it('signs its callbacks so that they verify', async () => {
    const { clock, sim } = basic();
    const { reference } = await sim.submit(application('Smith'), signal());
    const cb = sim.callbackFor(reference, 'evt-1');
    const now = Math.floor(clock.now().getTime() / 1000);
    expect(verifyWebhookSignature('s', cb.headers['x-kestrel-signature'], cb.body, now)).toBe('ok');
    expect(verifyWebhookSignature('other', cb.headers['x-kestrel-signature'], cb.body, now)).toBe(
      'mismatch',
    );
    expect(verifyWebhookSignature('s', cb.headers['x-kestrel-signature'], `${cb.body} `, now)).toBe(
      'mismatch',
    );
    expect(verifyWebhookSignature('s', cb.headers['x-kestrel-signature'], cb.body, now + 301)).toBe(
      'expired',
    );
    expect(verifyWebhookSignature('s', undefined, cb.body, now)).toBe('missing');
    expect(verifyWebhookSignature('s', 't=x,v1=zz', cb.body, now)).toBe('malformed');
    expect(JSON.parse(cb.body)).toMatchObject({ event_id: 'evt-1', reference });
  });
});

describe('the simulator at demo speed (a simulated day of `dayMs` real milliseconds)', () => {
  it('completes an enhanced application after 7 simulated days, dated the real days', async () => {
    const clock = new ManualClock('2026-03-02T23:59:00Z');
    const sim = new DisclosureSimulator({
      name: 'ebulk',
      clock,
      callbackSecret: 's',
      dayMs: 10_000,
    });
    const app = application('Smith', {
      level: 'enhanced',
      barred_lists: ['adult'],
      idempotency_key: 'key-fast',
    });
    const first = await sim.submit(app, signal());
    expect(first).toMatchObject({ status: 'in-progress', stage: 1 });
    clock.advance(69_000);
    const before = await sim.status(first.reference, signal());
    expect(before).toMatchObject({ status: 'in-progress', stage: 4 });
    clock.advance(1_000);
    const done = await sim.status(first.reference, signal());
    expect(done).toMatchObject({ status: 'complete', stage: 5 });
    // the stages happened on the real calendar: the submission day, then the next (after 23:59)
    expect(done.received_date).toBe('2026-03-02');
    expect(done.disclosure?.issue_date).toBe('2026-03-03');
    expect(done.certificate_despatched_date).toBe('2026-03-03');
  });

  it('keeps real timelines by default (a day is a day)', async () => {
    const { clock, sim } = basic();
    const first = await sim.submit(application('Smith'), signal());
    clock.advance(DAY - 1);
    expect((await sim.status(first.reference, signal())).stage).toBe(1);
    clock.advance(1);
    expect((await sim.status(first.reference, signal())).stage).toBe(2);
  });
});
