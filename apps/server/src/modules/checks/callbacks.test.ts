import type { DbsResultData, ProcessingData } from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  login,
  ManualClock,
  type TestApp,
} from '../../../test/helpers.js';
import { jobActor } from '../../jobs/service-job.js';
import { queueJobs } from '../../platform/jobs.js';
import { runInTenant } from '../../platform/service-context.js';
import { DisclosureSimulator } from '../../providers/dbs-basic/simulator.js';
import { createCaseBasicDetails } from '../case-data/case-data.factories.js';
import { caseActivities } from '../cases/cases.table.js';
import { applyInbox, checksCallbacksJob } from './callbacks.js';
import { checkCallbackInbox } from './callbacks.table.js';
import { readChecksConfig } from './config.js';
import { activitiesSubmitted } from './hooks.js';
import { checkEngine, createCheckEngine, useCheckEngine } from './providers.js';

// The provider-callback inbox (issue 17). No workers in this app: a stored callback's job runs
// only when a test drains the queue (t.settle()), so "stored, not yet applied" can be seen.
const DAY = 24 * 60 * 60 * 1000;
let t: TestApp;
let acme: number;
let admin: Client;
const days = new ManualClock(new Date());

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    await createAdminAndViewer(tx, acme);
  });
  useCheckEngine(t.app.deps, createCheckEngine(t.app.deps, readChecksConfig({}), days));
  admin = await login(t.app, 'admin@acme.test');
});
afterAll(() => t.close());

async function openCase(surname: string) {
  return t.owner(async (tx) => {
    const p = await createProcess(tx, { customerId: acme, requirements: ['dbs-basic'] });
    const c = await createCase(tx, { customerId: acme, processId: p.id });
    await createCaseBasicDetails(
      tx,
      { customerId: acme, caseId: c.id },
      { forename: 'Ada', surname, dob: '1990-01-01' },
    );
    const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.caseId, c.id));
    if (!a) throw new Error('no activity');
    return { caseId: c.id, activityId: a.id };
  });
}

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
    result_data: DbsResultData;
    processing_data: Omit<ProcessingData, 'reference'> & { reference: string };
  };
}

const simulator = () => {
  const p = checkEngine(t.app.deps).dbsBasic;
  if (!(p instanceof DisclosureSimulator)) throw new Error('not the simulator');
  return p;
};

describe('the callback inbox', () => {
  const inboxOf = (activityId: number) =>
    t.owner((tx) =>
      tx
        .select()
        .from(checkCallbackInbox)
        .where(eq(checkCallbackInbox.caseActivityId, activityId))
        .orderBy(checkCallbackInbox.id),
    );
  const post = (activityId: number, ref: string, eventId: string) => {
    const cb = simulator().callbackFor(ref, eventId);
    return t.app.inject({
      method: 'POST',
      url: `/callbacks/checks/dbs-basic/${activityId}/`,
      headers: cb.headers,
      payload: cb.body,
    });
  };

  it('stores the callback before its 2xx and applies it in a job, once, replays ignored', async () => {
    const k = await openCase('Inbox');
    await submit(k);
    const before = await activity(k.activityId);
    const ref = before.processing_data.reference;
    days.advance(DAY);
    const res = await post(k.activityId, ref, 'inbox-1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'stored' });
    // Answered once stored: the row and its job are committed, the activity not yet changed.
    const [stored] = await inboxOf(k.activityId);
    expect(stored).toMatchObject({ eventId: 'inbox-1', appliedAt: null, outcome: null });
    expect(stored?.body).toMatchObject({ event_id: 'inbox-1', reference: ref });
    const jobs = await t.owner((tx) =>
      tx.select().from(queueJobs).where(eq(queueJobs.name, 'checks-callbacks')),
    );
    expect(jobs.some((j) => (j.data as { inbox_id?: number }).inbox_id === stored?.id)).toBe(true);
    expect((await activity(k.activityId)).processing_data).toEqual(before.processing_data);
    // A replay before and after it is applied: 'duplicate', no second row, no second job.
    expect((await post(k.activityId, ref, 'inbox-1')).json()).toEqual({ status: 'duplicate' });
    await t.settle();
    expect((await post(k.activityId, ref, 'inbox-1')).json()).toEqual({ status: 'duplicate' });
    await t.settle();
    const rows = await inboxOf(k.activityId);
    expect(rows.map((r) => r.outcome)).toEqual(['applied']);
    const after = await activity(k.activityId);
    expect(after.processing_data.event_ids).toEqual(['inbox-1']);
    expect(after.result_data.application?.police_computer_search_date).toBeTruthy();
    // The job run again (a retry after a crash past its commit): nothing applied twice.
    await runInTenant(t.app.deps, jobActor(acme), (ctx) => applyInbox(ctx, k.activityId));
    expect((await activity(k.activityId)).processing_data).toEqual(after.processing_data);
  });

  it('applies many waiting callbacks of an activity in order, in one job', async () => {
    const k = await openCase('Batch');
    await submit(k);
    const ref = (await activity(k.activityId)).processing_data.reference;
    days.advance(DAY);
    for (const e of ['b-1', 'b-2', 'b-3']) {
      expect((await post(k.activityId, ref, e)).statusCode).toBe(200);
    }
    const applied = await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
      applyInbox(ctx, k.activityId),
    );
    expect(applied).toBe(3);
    await t.settle(); // the three jobs find nothing left
    expect((await activity(k.activityId)).processing_data.event_ids).toEqual(['b-1', 'b-2', 'b-3']);
    expect((await inboxOf(k.activityId)).map((r) => r.outcome)).toEqual([
      'applied',
      'applied',
      'applied',
    ]);
  });

  it("one job applies its activity's callbacks, then other activities' waiting ones", async () => {
    const k1 = await openCase('First');
    const k2 = await openCase('Second');
    await submit(k1);
    await submit(k2);
    const ref1 = (await activity(k1.activityId)).processing_data.reference;
    const ref2 = (await activity(k2.activityId)).processing_data.reference;
    days.advance(DAY);
    expect((await post(k2.activityId, ref2, 'o-1')).statusCode).toBe(200);
    expect((await post(k1.activityId, ref1, 'o-2')).statusCode).toBe(200);
    const [own] = await inboxOf(k1.activityId);
    if (!own) throw new Error('not stored');
    await checksCallbacksJob.handle(
      { case_activity_id: k1.activityId, customer_id: acme, inbox_id: own.id },
      t.app.deps,
    );
    expect((await activity(k1.activityId)).processing_data.event_ids).toEqual(['o-2']);
    expect((await activity(k2.activityId)).processing_data.event_ids).toEqual(['o-1']);
    await t.settle(); // both jobs: nothing left to apply
    expect((await inboxOf(k2.activityId)).map((r) => r.outcome)).toEqual(['applied']);
  });

  it('loses nothing when the process dies between storing and applying', async () => {
    const k = await openCase('Crash');
    await submit(k);
    const before = await activity(k.activityId);
    const ref = before.processing_data.reference;
    days.advance(DAY);
    expect((await post(k.activityId, ref, 'crash-1')).statusCode).toBe(200);
    // The job's transaction dies after applying, before its commit: nothing of it remains.
    await expect(
      runInTenant(t.app.deps, jobActor(acme), async (ctx) => {
        expect(await applyInbox(ctx, k.activityId)).toBe(1);
        throw new Error('crash');
      }),
    ).rejects.toThrow('crash');
    expect((await inboxOf(k.activityId)).map((r) => r.appliedAt)).toEqual([null]);
    expect((await activity(k.activityId)).processing_data).toEqual(before.processing_data);
    // Another server process's workers run the committed job: applied once.
    const other = await t.twin();
    await other.deps.jobs.settle();
    expect((await activity(k.activityId)).processing_data.event_ids).toEqual(['crash-1']);
    expect((await inboxOf(k.activityId)).map((r) => r.outcome)).toEqual(['applied']);
  });
});
