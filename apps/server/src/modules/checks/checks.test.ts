import type {
  ActivityConfig,
  CaseActivityState,
  DbsResultData,
  DbsUpdateResultData,
  ProcessingData,
} from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  login,
  ManualClock,
  type TestApp,
} from '../../../test/helpers.js';
import { jobActor } from '../../jobs/service-job.js';
import { queueJobs } from '../../platform/jobs.js';
import { runInTenant } from '../../platform/service-context.js';
import { signatureHeader } from '../../providers/dbs-basic/signature.js';
import { DisclosureSimulator } from '../../providers/dbs-basic/simulator.js';
import { createCaseBasicDetails } from '../case-data/case-data.factories.js';
import { caseDbsUpdateDetails } from '../case-data/case-data.table.js';
import { caseActivities, cases } from '../cases/cases.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { checkCallbackInbox } from './callbacks.table.js';
import { readChecksConfig } from './config.js';
import { initiateActivity, pollActivity } from './engine.js';
import { activitiesSubmitted } from './hooks.js';
import { checkEngine, createCheckEngine, useCheckEngine } from './providers.js';
import { settleTopUp } from './top-up.js';

const DAY = 24 * 60 * 60 * 1000;
let t: TestApp;
let acme: number;
let admin: Client;
let viewer: Client;
let ops: Client;
const days = new ManualClock(new Date());

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    await createAdminAndViewer(tx, acme);
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
  });
  // Short timeouts so a provider that never answers fails fast.
  // The providers' own clock moves over simulated days; the app's stays (sessions stay valid).
  useCheckEngine(
    t.app.deps,
    createCheckEngine(t.app.deps, { ...readChecksConfig({}), providerTimeoutMs: 300 }, days),
  );
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
  ops = await login(t.app, 'ops@k.test');
});
afterAll(() => t.close());

/** A case whose one activity is `code`, its subject named `surname`, waiting for the subject. */
async function openCase(code: string, surname: string, config: ActivityConfig = {}) {
  return t.owner(async (tx) => {
    const p = await createProcess(tx, { customerId: acme, requirements: [{ code, config }] });
    const c = await createCase(tx, { customerId: acme, processId: p.id });
    await createCaseBasicDetails(
      tx,
      { customerId: acme, caseId: c.id },
      {
        forename: 'Ada',
        surname,
        dob: '1990-01-01',
      },
    );
    const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.caseId, c.id));
    if (!a) throw new Error('no activity');
    return { caseId: c.id, activityId: a.id };
  });
}

/** The subject's submit: the portal calls activitiesSubmitted in its transaction. */
async function submit(k: { caseId: number; activityId: number }) {
  await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
    activitiesSubmitted(ctx, k.caseId, [k.activityId]),
  );
  await t.settle();
}

async function activity(id: number) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/case-activities/${id}/`,
    headers: admin.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    state: CaseActivityState;
    result_data: DbsResultData & DbsUpdateResultData;
    /** (A started activity's reference is a string.) */
    processing_data: Omit<ProcessingData, 'reference'> & { reference: string };
  };
}

async function caseState(id: number) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/cases/${id}/`,
    headers: admin.headers,
  });
  return String(res.json().state);
}

const simulator = (name: 'dbs-basic' | 'ebulk') => {
  const p = name === 'ebulk' ? checkEngine(t.app.deps).ebulk : checkEngine(t.app.deps).dbsBasic;
  if (!(p instanceof DisclosureSimulator)) throw new Error('not the simulator');
  return p;
};

/** Posts the simulator's callback of the application now. */
async function callback(
  name: 'dbs-basic' | 'ebulk',
  activityId: number,
  reference: string,
  eventId?: string,
) {
  const cb = simulator(name).callbackFor(reference, eventId);
  const res = await t.app.inject({
    method: 'POST',
    url: `/callbacks/checks/${name}/${activityId}/`,
    headers: cb.headers,
    payload: cb.body,
  });
  await t.settle(); // the inbox's job applies it
  return res;
}

describe('a basic check from submission to its outcome', () => {
  it('clear: in progress with a reference, through the stages by callback, complete', async () => {
    const k = await openCase('dbs-basic', 'Smith');
    await submit(k);
    const started = await activity(k.activityId);
    expect(started.state).toBe('ca-in-progress');
    expect(await caseState(k.caseId)).toBe('in-progress');
    const ref = started.processing_data.reference;
    expect(ref).toMatch(/^BD-/);
    expect(started.processing_data.events.map((e) => e.type)).toEqual(['request', 'answer']);
    expect(started.result_data.application).toMatchObject({
      reference: ref,
      status: 'In progress',
    });
    days.advance(DAY);
    expect((await callback('dbs-basic', k.activityId, ref)).json()).toEqual({ status: 'stored' });
    const day1 = await activity(k.activityId);
    expect(day1.state).toBe('ca-in-progress');
    expect(day1.result_data.application?.police_computer_search_date).toBeTruthy();
    days.advance(DAY);
    expect((await callback('dbs-basic', k.activityId, ref)).statusCode).toBe(200);
    const done = await activity(k.activityId);
    expect(done.state).toBe('ca-complete');
    expect(done.result_data.disclosure).toMatchObject({
      status: 'clear',
      manual_certificate: false,
    });
    expect(done.result_data.tracking).toHaveLength(3);
    expect(await caseState(k.caseId)).toBe('pending-case-decision');
  });

  it('records held, found by the poll job', async () => {
    const k = await openCase('dbs-basic', 'Records');
    await submit(k);
    days.advance(3 * DAY);
    await pollActivity(t.app.deps, { case_activity_id: k.activityId, customer_id: acme });
    const done = await activity(k.activityId);
    expect(done.state).toBe('ca-complete');
    expect(done.result_data.disclosure?.status).toBe('records-held');
    expect(done.result_data.application?.records_held_date).toBeTruthy();
    expect(done.processing_data.events.at(-1)?.type).toBe('poll');
  });

  it('cancelled by the provider', async () => {
    const k = await openCase('dbs-basic', 'Cancel');
    await submit(k);
    days.advance(DAY);
    const ref = (await activity(k.activityId)).processing_data.reference;
    await callback('dbs-basic', k.activityId, ref);
    expect((await activity(k.activityId)).state).toBe('ca-cancelled');
    expect(await caseState(k.caseId)).toBe('cancelled');
  });
});

/** Staff record the identity route, verify it, then countersign (the DBS details' actions). */
async function verifyAndCountersign(caseId: number) {
  const url = `/api/case-dbs-details/${caseId}/`;
  const send = (method: 'PATCH' | 'POST', path: string, payload: object) =>
    t.app.inject({ method, url: `${url}${path}`, headers: admin.headers, payload });
  expect((await send('PATCH', '', { idv_option: 'online' })).statusCode).toBe(200);
  const countersignFirst = await send('POST', 'countersign/', {});
  expect(countersignFirst.statusCode).toBe(400);
  expect((await activity(await onlyActivity(caseId))).state).toBe('ca-awaiting-agent');
  expect((await send('POST', 'verify/', {})).statusCode).toBe(200);
  await t.settle();
  // verified, not yet countersigned: still waiting
  expect((await activity(await onlyActivity(caseId))).state).toBe('ca-awaiting-agent');
  const signed = await send('POST', 'countersign/', {});
  expect(signed.statusCode).toBe(200);
  expect(signed.json()).toMatchObject({ state: 'countersigned' });
  await t.settle();
}

async function onlyActivity(caseId: number) {
  const [a] = await t.owner((tx) =>
    tx.select().from(caseActivities).where(eq(caseActivities.caseId, caseId)),
  );
  return a?.id ?? 0;
}

describe('an enhanced check (e-bulk, barred lists per workforce)', () => {
  it('barred-list match on the adults list', async () => {
    const k = await openCase('dbs-enhanced', 'Barred', {
      workforce: 'A',
      adult_barred_list: true,
      child_barred_list: true,
    });
    await submit(k);
    // not sent to the DBS before its identity is verified and a countersignatory countersigns
    const waiting = await activity(k.activityId);
    expect(waiting.state).toBe('ca-awaiting-agent');
    expect(waiting.processing_data.reference).toBeNull();
    expect(waiting.processing_data.events).toEqual([]);
    await verifyAndCountersign(k.caseId);
    const ref = (await activity(k.activityId)).processing_data.reference;
    expect(ref).toMatch(/^EB-BEa-/); // only the adults list: the workforce is adult
    days.advance(7 * DAY);
    await callback('ebulk', k.activityId, ref);
    const done = await activity(k.activityId);
    expect(done.state).toBe('ca-complete');
    expect(done.result_data.disclosure?.status).toBe('barred-list-match');
    expect(done.result_data.barred_lists).toEqual([
      expect.objectContaining({ list: 'adult', result: 'match', searched: true }),
    ]);
    expect(done.result_data.application?.e_number).toMatch(/^E\d{9}$/);
  });
});

describe('callbacks', () => {
  it('refuses unsigned, wrongly signed, stale and malformed callbacks, changing nothing', async () => {
    const k = await openCase('dbs-basic', 'Smith');
    await submit(k);
    const before = await activity(k.activityId);
    const ref = before.processing_data.reference;
    days.advance(2 * DAY);
    const cb = simulator('dbs-basic').callbackFor(ref, 'evt-x');
    const url = `/callbacks/checks/dbs-basic/${k.activityId}/`;
    const post = (headers: Record<string, string>, payload: string) =>
      t.app.inject({ method: 'POST', url, headers, payload });
    expect((await post({ 'content-type': 'application/json' }, cb.body)).statusCode).toBe(401);
    expect(
      (
        await post(
          {
            ...cb.headers,
            // its last hex digit changed (to a different one: '0' would keep a signature ending in 0)
            'x-kestrel-signature':
              cb.headers['x-kestrel-signature']?.replace(/.$/, (d) => (d === '0' ? '1' : '0')) ??
              '',
          },
          cb.body,
        )
      ).statusCode,
    ).toBe(401);
    expect((await post(cb.headers, cb.body.replace('complete', 'cancelled'))).statusCode).toBe(401);
    t.clock.advance(10 * 60 * 1000);
    expect((await post(cb.headers, cb.body)).statusCode).toBe(401); // replayed after 5 minutes
    t.clock.advance(-10 * 60 * 1000);
    // Signed but malformed: a 400 with the field that is wrong.
    const secrets = readChecksConfig({});
    const sign = (secret: string, body: string) => ({
      'content-type': 'application/json',
      'x-kestrel-signature': signatureHeader(
        secret,
        Math.floor(t.clock.now().getTime() / 1000),
        body,
      ),
    });
    const body = JSON.stringify({ event_id: 'evt-y', reference: ref, status: 'done' });
    const malformed = await post(sign(secrets.dbsBasicCallbackSecret, body), body);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toHaveProperty('status');
    expect((await post(sign(secrets.dbsBasicCallbackSecret, '{'), '{')).statusCode).toBe(400);
    // Another provider's path, another application's reference, no such activity: refused.
    const wrongPath = await t.app.inject({
      method: 'POST',
      url: `/callbacks/checks/ebulk/${k.activityId}/`,
      headers: sign(secrets.ebulkCallbackSecret, cb.body),
      payload: cb.body,
    });
    // Stored (never lost), then rejected by the job: another provider's, another application's.
    expect(wrongPath.json()).toEqual({ status: 'stored' });
    const otherRef = cb.body
      .replace(ref, `${ref.slice(0, -1)}${ref.endsWith('9') ? '8' : '9'}`)
      .replace('"evt-x"', '"evt-other-ref"');
    const other = await post(sign(secrets.dbsBasicCallbackSecret, otherRef), otherRef);
    expect(other.json()).toEqual({ status: 'stored' });
    await t.settle();
    const kept = await t.owner((tx) =>
      tx
        .select()
        .from(checkCallbackInbox)
        .where(eq(checkCallbackInbox.caseActivityId, k.activityId)),
    );
    expect(kept.map((r) => [r.provider, r.eventId, r.outcome, r.error])).toEqual([
      ['ebulk', 'evt-x', 'rejected', 'Not an activity of this provider in progress.'],
      ['dbs-basic', 'evt-other-ref', 'rejected', 'The callback names another application.'],
    ]);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/callbacks/checks/dbs-basic/999999/',
      headers: cb.headers,
      payload: cb.body,
    });
    expect(missing.statusCode).toBe(404);
    const after = await activity(k.activityId);
    expect(after.state).toBe('ca-in-progress');
    expect(after.processing_data).toEqual(before.processing_data);
  });

  it('applies an event once: a replay of the same event id is ignored', async () => {
    const k = await openCase('dbs-basic', 'Smith');
    await submit(k);
    const ref = (await activity(k.activityId)).processing_data.reference;
    days.advance(DAY);
    expect((await callback('dbs-basic', k.activityId, ref, 'evt-1')).json()).toEqual({
      status: 'stored',
    });
    const once = await activity(k.activityId);
    expect((await callback('dbs-basic', k.activityId, ref, 'evt-1')).json()).toEqual({
      status: 'duplicate',
    });
    expect((await activity(k.activityId)).processing_data).toEqual(once.processing_data);
    expect(once.processing_data.event_ids).toEqual(['evt-1']);
  });
});

describe('a provider that fails or does not answer', () => {
  it('error-initiating, retried automatically, then by operations', async () => {
    const k = await openCase('dbs-basic', 'Flaky');
    await submit(k);
    const failed = await activity(k.activityId);
    expect(failed.state).toBe('ca-error-initiating');
    expect(failed.processing_data).toMatchObject({
      attempts: 1,
      last_error: 'Service unavailable (503).',
    });
    // Customers cannot retry; operations can.
    const url = `/api/ops/case-activities/${k.activityId}/retry/`;
    expect((await t.app.inject({ method: 'POST', url, headers: admin.headers })).statusCode).toBe(
      403,
    );
    expect((await t.app.inject({ method: 'POST', url, headers: viewer.headers })).statusCode).toBe(
      403,
    );
    const bad = await t.app.inject({
      method: 'POST',
      url,
      headers: ops.headers,
      payload: { reason: 5 },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['reason']);
    expect((await activity(k.activityId)).state).toBe('ca-error-initiating');
    const retried = await t.app.inject({
      method: 'POST',
      url,
      headers: ops.headers,
      payload: { reason: 'Provider back' },
    });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({ state: 'ca-in-progress' });
    await t.settle();
    const ok = await activity(k.activityId);
    expect(ok.state).toBe('ca-in-progress');
    expect(ok.processing_data.reference).toMatch(/^BD-/);
    // Only an activity in error can be retried.
    const again = await t.app.inject({ method: 'POST', url, headers: ops.headers });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      state: ['Only an activity whose start failed can be retried.'],
    });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/ops/case-activities/999999/retry/',
          headers: ops.headers,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('retries a failed start automatically with back-off, up to the attempts allowed', async () => {
    const k = await openCase('dbs-basic', 'Error');
    await submit(k);
    const job = { case_activity_id: k.activityId, customer_id: acme };
    const queued = () =>
      t.owner(async (tx) => {
        const rows = await tx
          .select({ data: queueJobs.data, startAfter: queueJobs.startAfter })
          .from(queueJobs)
          .where(and(eq(queueJobs.name, 'checks-initiate'), eq(queueJobs.state, 'created')));
        return rows.filter(
          (r) =>
            (r.data as { case_activity_id?: number }).case_activity_id === k.activityId &&
            r.startAfter.getTime() > Date.now() + 20_000,
        ).length;
      });
    expect(await queued()).toBe(1); // the next attempt waits 30 s
    // What the delayed jobs do when they run: each failure recorded, until attempts run out.
    for (let i = 2; i <= 5; i++) await initiateActivity(t.app.deps, job);
    const failed = await activity(k.activityId);
    expect(failed.state).toBe('ca-error-initiating');
    expect(failed.processing_data.attempts).toBe(5);
    expect(failed.processing_data.events.filter((e) => e.type === 'error')).toHaveLength(5);
    expect(await queued()).toBe(4); // no sixth: operations retry it now
  });

  it('a timeout is an error too', async () => {
    const k = await openCase('dbs-basic', 'Timeout');
    await submit(k);
    const failed = await activity(k.activityId);
    expect(failed.state).toBe('ca-error-initiating');
    expect(failed.processing_data.last_error).toBe('The provider did not answer in time.');
    expect(await caseState(k.caseId)).toBe('in-progress');
  });
});

describe('top-up', () => {
  it('the price list demands one for a paper certificate: awaiting, then paid, then submitted', async () => {
    const k = await openCase('dbs-basic', 'Smith', {
      paper_cert: true,
      paper_cert_name: 'Ada Smith',
      paper_cert_line_one: '1 High Street',
      paper_cert_town: 'Leeds',
      paper_cert_postcode: 'LS1 1AA',
    });
    await submit(k);
    const waiting = await activity(k.activityId);
    expect(waiting.state).toBe('ca-awaiting-subject');
    expect(waiting.processing_data.top_up).toEqual({
      amount_pence: 350,
      reason: 'Paper certificate by post',
      status: 'awaiting',
      // its payment link, made by the payments job once the demand committed
      payment_intent: expect.stringMatching(/^pit_/),
    });
    expect(waiting.result_data.top_up).toEqual({
      status: 'awaiting',
      amount: 350,
      payment_id: waiting.processing_data.top_up?.payment_intent,
    });
    expect(await caseState(k.caseId)).toBe('awaiting-subject');
    await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
      settleTopUp(ctx, k.activityId, 'paid', 'pi_123'),
    );
    await t.settle();
    const paid = await activity(k.activityId);
    expect(paid.state).toBe('ca-in-progress');
    expect(paid.processing_data.top_up).toMatchObject({ status: 'paid', payment_intent: 'pi_123' });
    expect(paid.processing_data.reference).toMatch(/^BD-/);
    // The same webhook again changes nothing; another settlement is refused.
    await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
      settleTopUp(ctx, k.activityId, 'paid', 'pi_123'),
    );
    await expect(
      runInTenant(t.app.deps, jobActor(acme), (ctx) =>
        settleTopUp(ctx, k.activityId, 'declined', 'pi_9'),
      ),
    ).rejects.toMatchObject({ statusCode: 409 });
  });

  it('the provider demands one; declined, the customer decides', async () => {
    const k = await openCase('dbs-basic', 'Topup');
    await submit(k);
    const waiting = await activity(k.activityId);
    expect(waiting.state).toBe('ca-awaiting-subject');
    expect(waiting.processing_data.top_up).toMatchObject({
      amount_pence: 1500,
      status: 'awaiting',
      payment_intent: expect.stringMatching(/^pit_/),
    });
    expect(waiting.result_data.application?.status).toBe('Awaiting top-up payment');
    await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
      settleTopUp(ctx, k.activityId, 'declined', 'pi_d'),
    );
    const declined = await activity(k.activityId);
    expect(declined.state).toBe('ca-pending-activity-decision');
    expect(declined.processing_data.top_up?.status).toBe('declined');
  });

  it('the provider demands one; paid, the provider takes the application', async () => {
    const k = await openCase('dbs-basic', 'Topup');
    await submit(k);
    await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
      settleTopUp(ctx, k.activityId, 'paid', 'pi_p'),
    );
    await t.settle();
    const going = await activity(k.activityId);
    expect(going.state).toBe('ca-in-progress');
    expect(going.processing_data.reference).toMatch(/^BD-/);
  });
});

describe('the update service check', () => {
  async function updateCase(certificate: string) {
    const k = await openCase('dbs-update', 'Smith');
    await t.owner((tx) =>
      tx.insert(caseDbsUpdateDetails).values({
        customerId: acme,
        caseId: k.caseId,
        certificateNumber: certificate,
        surname: 'Smith',
        dob: '1990-01-01',
      }),
    );
    await submit(k);
    return k;
  }

  it.each([
    ['200000000001', 'BLANK_NO_NEW_INFO', 'ca-complete'],
    ['300000000001', 'NON_BLANK_NO_NEW_INFO', 'ca-complete'],
    ['400000000001', 'NEW_INFO', 'ca-complete'],
    ['100000000001', 'NO_MATCH_FOUND', 'ca-complete'],
    ['500000000001', 'UNDER_REVIEW', 'ca-pending-activity-decision'],
  ])('certificate %s: %s', async (certificate, status, state) => {
    const k = await updateCase(certificate);
    const a = await activity(k.activityId);
    expect(a.state).toBe(state);
    expect(a.result_data).toMatchObject({
      certificate_status: status,
      certificate_number: certificate,
    });
  });

  it("shows its status on the case's criminal-record checks (their 'update service status')", async () => {
    const k = await t.owner(async (tx) => {
      const p = await createProcess(tx, {
        customerId: acme,
        requirements: [
          { code: 'dbs-basic', config: {} },
          { code: 'dbs-update', config: {} },
        ],
      });
      const c = await createCase(tx, { customerId: acme, processId: p.id });
      await createCaseBasicDetails(
        tx,
        { customerId: acme, caseId: c.id },
        { forename: 'Ada', surname: 'Smith', dob: '1990-01-01' },
      );
      await tx.insert(caseDbsUpdateDetails).values({
        customerId: acme,
        caseId: c.id,
        certificateNumber: '200000000001',
        surname: 'Smith',
        dob: '1990-01-01',
      });
      const acts = await tx
        .select()
        .from(caseActivities)
        .where(eq(caseActivities.caseId, c.id))
        .orderBy(caseActivities.position);
      return { caseId: c.id, ids: acts.map((a) => a.id) };
    });
    await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
      activitiesSubmitted(ctx, k.caseId, k.ids),
    );
    await t.settle();
    const [basic, update] = await Promise.all(k.ids.map((id) => activity(id)));
    expect(update?.result_data.certificate_status).toBe('BLANK_NO_NEW_INFO');
    expect(basic?.result_data.update_service).toEqual({
      certificate_status: 'BLANK_NO_NEW_INFO',
      checked_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    // the basic check's own progress keeps it
    expect(basic?.result_data.application?.reference).toMatch(/^BD-/);
  });

  it('a server error is error-initiating', async () => {
    const k = await updateCase('900000000001');
    expect((await activity(k.activityId)).state).toBe('ca-error-initiating');
  });

  it('without update details it cannot start', async () => {
    const k = await openCase('dbs-update', 'Smith');
    await submit(k);
    const a = await activity(k.activityId);
    expect(a.state).toBe('ca-error-initiating');
    expect(a.processing_data.last_error).toBe('The case data the check needs is missing.');
  });
});

describe('activitiesSubmitted', () => {
  it("in the subject's own transaction, starts them by a job once it commits", async () => {
    const k = await openCase('dbs-basic', 'Smith');
    const [subject] = await t.owner((tx) =>
      tx
        .select({ userId: subjects.userId })
        .from(cases)
        .innerJoin(subjects, eq(subjects.id, cases.subjectId))
        .where(eq(cases.id, k.caseId)),
    );
    const subjectActor = {
      ...jobActor(acme),
      type: 'SubjectUser' as const,
      id: subject?.userId ?? null,
      name: 'subject',
    };
    await runInTenant(t.app.deps, subjectActor, (ctx) =>
      activitiesSubmitted(ctx, k.caseId, [k.activityId]),
    );
    await t.settle();
    const a = await activity(k.activityId);
    expect(a.state).toBe('ca-in-progress');
    expect(a.processing_data.reference).toMatch(/^BD-/);
  });

  it('leaves kinds it does not run alone, and rolls back with its caller', async () => {
    const k = await openCase('rtw', 'Smith');
    await submit(k);
    expect((await activity(k.activityId)).state).toBe('ca-awaiting-subject');
    const d = await openCase('dbs-basic', 'Smith');
    await expect(
      runInTenant(t.app.deps, jobActor(acme), async (ctx) => {
        await activitiesSubmitted(ctx, d.caseId, [d.activityId]);
        throw new Error('the portal failed');
      }),
    ).rejects.toThrow('the portal failed');
    await t.settle();
    const a = await activity(d.activityId);
    expect(a.state).toBe('ca-awaiting-subject');
    expect(a.processing_data).toEqual({});
    const [c] = await t.owner((tx) => tx.select().from(cases).where(eq(cases.id, d.caseId)));
    expect(c?.state).toBe('awaiting-subject');
  });
});
