import type { KnowledgeTestResultData } from '@kestrel/domain';
import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  createCase,
  createProcess,
  ManualClock,
  type TestApp,
} from '../../../../test/helpers.js';
import { kindsWorld } from '../../../../test/kinds.js';
import { auditActions } from '../../../platform/tables/audit.table.js';
import { outboxEmails } from '../../../platform/tables/outbox.table.js';
import { TestPlatformSimulator } from '../../../providers/test-platform/simulator.js';
import { caseActivities } from '../../activities/activities.table.js';
import { pollActivity } from '../engine.js';
import { checkEngine } from '../providers.js';

/*
 * The knowledge test end to end through the API (issue 27): the subject submits the portal, the
 * engine invites them to the test platform (the link by email through the outbox and on their
 * case), the platform's signed callback (or the engine's poll) completes it with the result;
 * callbacks unsigned, replayed or for another tenant's activity are refused; a failed invitation
 * is retried by operations; operations record a test taken on paper.
 */

const DAY = 24 * 60 * 60 * 1000;
const days = new ManualClock(new Date());
const world = kindsWorld({ customers: ['Globex'], providerClock: days });
const { call } = world;
let t: TestApp;
let acme: number;
let globex: number;
let admin: Client;
let ops: Client;
let people = 0;
beforeAll(() => {
  ({ t, acme, admin, ops } = world);
  globex = world.customer('Globex');
});

/** A subject with a login and an open case asking for a knowledge test, awaiting them. */
const subjectWithTest = (tag = '', customerId = acme) =>
  world.subjectCase({
    requirements: ['knowledge-test'],
    customerId,
    subject: {
      email: `person-${++people}${tag}@example.test`,
      firstName: 'Ada',
      lastName: 'Lovelace',
    },
  });

/** The subject's Review & Submit (the portal has no section for the test itself). */
const submit = (subject: Client, caseId: number) =>
  world.submitPortal(subject, caseId, ['welcome']);

const activityAs = (c: Client, id: number, prefix = '/api') =>
  world.activity<KnowledgeTestResultData>(id, c, prefix);

const simulator = () => {
  const p = checkEngine(t.app.deps).providers.get('test-platform');
  if (!(p instanceof TestPlatformSimulator)) throw new Error('not the simulator');
  return p;
};

const postCallback = (activityId: number, cb: { body: string; headers: Record<string, string> }) =>
  t.app.inject({
    method: 'POST',
    url: `/callbacks/checks/test-platform/${activityId}/`,
    headers: cb.headers,
    payload: cb.body,
  });

describe('the knowledge test', () => {
  it('invites the subject on submission: the link by email and on their case', async () => {
    const k = await subjectWithTest();
    await submit(k.subject, k.caseId);
    const a = await activityAs(admin, k.activityId);
    expect(a.state).toBe('ca-in-progress');
    expect(a.result_data.test_url).toMatch(/^https:\/\/knowledge-test\.example\/take\/KT-P-/);
    expect(a.processing_data.reference).toBe(a.result_data.test_url?.split('/').at(-1));
    expect(a.result_data.passed ?? null).toBeNull();
    const mails = await t.owner((tx) =>
      tx.select().from(outboxEmails).where(eq(outboxEmails.to, k.email)),
    );
    const invitation = mails.find((m) => m.subject === 'Your knowledge test for Acme');
    expect(invitation?.text).toContain(a.result_data.test_url ?? 'no link');
    expect(invitation?.text).toContain(`/s/cases/${k.caseId}`);
    // the subject's restricted view carries the link too
    const own = await call(k.subject, 'GET', `/api/s/case-activities/${k.activityId}/result/`);
    expect(own.statusCode).toBe(200);
    expect(own.json().result_data.test_url).toBe(a.result_data.test_url);
  });

  it('completes with the platform signed callback: every part of the result; replay ignored', async () => {
    const k = await subjectWithTest();
    await submit(k.subject, k.caseId);
    const ref = (await activityAs(admin, k.activityId)).processing_data.reference ?? '';
    days.advance(DAY);
    const cb = simulator().callbackFor(ref, `done-${k.activityId}`);
    const res = await postCallback(k.activityId, cb);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'stored' });
    await t.settle();
    const a = await activityAs(admin, k.activityId);
    expect(a.state).toBe('ca-complete');
    expect(a.result_data).toMatchObject({
      passed: true,
      percentage: 85,
      duration_seconds: 1420,
      method: 'online',
      intro: { first_name: 'Ada', last_name: 'Lovelace', email: k.email },
      results_url: `https://knowledge-test.example/results/${ref}`,
    });
    expect(a.result_data.categories).toHaveLength(4);
    expect((await postCallback(k.activityId, cb)).json()).toEqual({ status: 'duplicate' });
    const cases = await call(admin, 'GET', `/api/cases/${k.caseId}/`);
    expect(cases.json().state).toBe('pending-case-decision');
  });

  it('refuses callbacks unsigned, wrongly signed or too old', async () => {
    const k = await subjectWithTest();
    await submit(k.subject, k.caseId);
    const ref = (await activityAs(admin, k.activityId)).processing_data.reference ?? '';
    const cb = simulator().callbackFor(ref, `bad-${k.activityId}`);
    const { 'x-test-platform-signature': _sig, ...unsigned } = cb.headers;
    expect((await postCallback(k.activityId, { ...cb, headers: unsigned })).statusCode).toBe(401);
    const forged = {
      ...cb.headers,
      'x-test-platform-signature': `t=${Math.floor(t.clock.now().getTime() / 1000)},sha256=${'0'.repeat(64)}`,
    };
    expect((await postCallback(k.activityId, { ...cb, headers: forged })).statusCode).toBe(401);
    t.clock.advance(10 * 60 * 1000);
    expect((await postCallback(k.activityId, cb)).statusCode).toBe(401);
    await t.settle();
    expect((await activityAs(admin, k.activityId)).state).toBe('ca-in-progress');
  });

  it("rejects a callback naming another tenant's application", async () => {
    const mine = await subjectWithTest();
    const theirs = await subjectWithTest('', globex);
    await submit(mine.subject, mine.caseId);
    await submit(theirs.subject, theirs.caseId);
    const theirRef = await t.owner(async (tx) => {
      const [row] = await tx
        .select({ p: caseActivities.processingData })
        .from(caseActivities)
        .where(eq(caseActivities.id, theirs.activityId));
      return String((row?.p as { reference?: string } | undefined)?.reference);
    });
    days.advance(DAY);
    // Globex's completed result, posted to Acme's activity
    const cb = simulator().callbackFor(theirRef, `cross-${mine.activityId}`);
    expect((await postCallback(mine.activityId, cb)).statusCode).toBe(200);
    await t.settle();
    const a = await activityAs(admin, mine.activityId);
    expect(a.state).toBe('ca-in-progress');
    expect(a.result_data.passed ?? null).toBeNull();
    expect(a.processing_data.events.at(-1)?.body).toMatchObject({
      rejected: 'The callback names another application.',
    });
  });

  it('fails a +kt-fail subject when the engine polls a day later', async () => {
    const k = await subjectWithTest('+kt-fail');
    await submit(k.subject, k.caseId);
    days.advance(DAY);
    await pollActivity(t.app.deps, { case_activity_id: k.activityId, customer_id: acme });
    const a = await activityAs(admin, k.activityId);
    expect(a.state).toBe('ca-complete');
    expect(a.result_data).toMatchObject({ passed: false, percentage: 45 });
  });

  it('retries an invitation the platform failed, from operations', async () => {
    const k = await subjectWithTest('+kt-flaky');
    await submit(k.subject, k.caseId);
    const failed = await activityAs(admin, k.activityId);
    expect(failed.state).toBe('ca-error-initiating');
    expect(failed.processing_data.last_error).toBe('The provider answered 503.');
    const retry = await call(ops, 'POST', `/api/ops/case-activities/${k.activityId}/retry/`, {
      reason: 'Platform back',
    });
    expect(retry.statusCode, retry.body).toBe(200);
    await t.settle();
    const a = await activityAs(admin, k.activityId);
    expect(a.state).toBe('ca-in-progress');
    expect(a.result_data.test_url).toContain('/take/KT-P-');
  });
});

describe('the paper knowledge test (operations)', () => {
  const url = (id: number) => `/api/ops/case-activities/${id}/knowledge-test-result/`;

  it('records a pass or a fail: complete, by whom, audited', async () => {
    const k = await subjectWithTest('+kt-never');
    await submit(k.subject, k.caseId);
    const res = await call(ops, 'POST', url(k.activityId), { result: 'fail' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      state: 'ca-complete',
      result_data: { passed: false, method: 'paper', test_url: null },
    });
    const a = await activityAs(admin, k.activityId);
    expect(a.result_data.recorded_by).toBeTruthy();
    const [audit] = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.objectId, String(k.activityId)),
            eq(auditActions.contentType, 'cases.caseactivity'),
            eq(auditActions.verb, 'state_changed'),
          ),
        )
        .orderBy(desc(auditActions.id))
        .limit(1),
    );
    expect(audit?.changes).toMatchObject({ state: ['ca-in-progress', 'ca-complete'] });
    // closed now
    const again = await call(ops, 'POST', url(k.activityId), { result: 'pass' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ non_field_errors: ['This activity is closed.'] });
  });

  it('completes a test whose invitation failed (from an error, through operations)', async () => {
    const k = await subjectWithTest('+kt-reject');
    await submit(k.subject, k.caseId);
    expect((await activityAs(admin, k.activityId)).state).toBe('ca-error-initiating');
    const res = await call(ops, 'POST', url(k.activityId), { result: 'pass' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result_data).toMatchObject({ passed: true, method: 'paper' });
  });

  it('is for operations only, validated, for knowledge tests only', async () => {
    const k = await subjectWithTest();
    expect((await call(admin, 'POST', url(k.activityId), { result: 'pass' })).statusCode).toBe(403);
    expect((await call(k.subject, 'POST', url(k.activityId), { result: 'pass' })).statusCode).toBe(
      403,
    );
    const empty = await call(ops, 'POST', url(k.activityId), {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ result: ['Required'] });
    expect((await call(ops, 'POST', url(999_999), { result: 'pass' })).statusCode).toBe(404);
    const other = await t.owner(async (tx) => {
      const p = await createProcess(tx, { customerId: acme, requirements: ['basic-details'] });
      const c = await createCase(tx, { customerId: acme, processId: p.id });
      const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.caseId, c.id));
      return a?.id ?? 0;
    });
    const wrong = await call(ops, 'POST', url(other), { result: 'pass' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ non_field_errors: ['This activity is not a knowledge test.'] });
  });
});
