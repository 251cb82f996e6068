// @postgres: concurrent callbacks stored in batches: row locks, no deadlock, 503 on a full pool

import type { ApplicationCallback, ProcessingData } from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createCase,
  createCustomer,
  createProcess,
  ManualClock,
  type TestApp,
} from '../../../test/helpers.js';
import { jobActor } from '../../jobs/service-job.js';
import { NUL_MESSAGE, UNPAIRED_SURROGATE_MESSAGE } from '../../platform/body-parsing.js';
import { NotFoundError } from '../../platform/errors.js';
import { queueJobs } from '../../platform/jobs.js';
import { runAsSystem, runInTenant } from '../../platform/service-context.js';
import { signWebhook } from '../../platform/webhooks.js';
import { DisclosureSimulator } from '../../providers/dbs-basic/simulator.js';
import { caseActivities } from '../activities/activities.table.js';
import { createCaseBasicDetails } from '../case-data/case-data.factories.js';
import {
  BusyError,
  CallbackReceiver,
  checksCallbacksJob,
  RECEIVE_BACKLOG,
  receiveCallbacks,
} from './callbacks.js';
import { checkCallbackInbox } from './callbacks.table.js';
import { readChecksConfig } from './config.js';
import { activitiesSubmitted } from './hooks.js';
import { checkEngine, createCheckEngine, useCheckEngine } from './providers.js';

// Callbacks stored in batches (group commit, issue 17's callback rate): many callbacks in one
// transaction, each answered as if alone; one job per customer; a failed batch stores nothing.
const DAY = 24 * 60 * 60 * 1000;
let t: TestApp;
const customers: number[] = [];
const days = new ManualClock(new Date());

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    customers.push((await createCustomer(tx, { name: 'Acme' })).id);
    customers.push((await createCustomer(tx, { name: 'Northgate' })).id);
  });
  useCheckEngine(
    t.app.deps,
    createCheckEngine(t.app.deps, readChecksConfig({}, t.app.deps.secrets), days),
  );
});
afterAll(() => t.close());

type Started = { customerId: number; activityId: number; reference: string };

/** A dbs-basic check of `customerId`, submitted and in progress at the provider. */
async function started(customerId: number, surname: string): Promise<Started> {
  const k = await t.owner(async (tx) => {
    const p = await createProcess(tx, { customerId, requirements: ['dbs-basic'] });
    const c = await createCase(tx, { customerId, processId: p.id });
    await createCaseBasicDetails(
      tx,
      { customerId, caseId: c.id },
      { forename: 'Ada', surname, dob: '1990-01-01' },
    );
    const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.caseId, c.id));
    if (!a) throw new Error('no activity');
    return { caseId: c.id, activityId: a.id };
  });
  await runInTenant(t.app.deps, jobActor(customerId), (ctx) =>
    activitiesSubmitted(ctx, k.caseId, [k.activityId]),
  );
  await t.settle();
  return { customerId, activityId: k.activityId, reference: await referenceOf(k.activityId) };
}

async function processingOf(activityId: number) {
  const [a] = await t.owner((tx) =>
    tx.select().from(caseActivities).where(eq(caseActivities.id, activityId)),
  );
  return a?.processingData as ProcessingData;
}

async function referenceOf(activityId: number) {
  const ref = (await processingOf(activityId)).reference;
  if (!ref) throw new Error('not started');
  return ref;
}

const simulator = () => {
  const p = checkEngine(t.app.deps).providers.get('dbs-basic');
  if (!(p instanceof DisclosureSimulator)) throw new Error('not the simulator');
  return p;
};

const callback = (ref: string, eventId: string) =>
  JSON.parse(simulator().callbackFor(ref, eventId).body) as ApplicationCallback;

const callbackJobs = () =>
  t.owner((tx) => tx.select().from(queueJobs).where(eq(queueJobs.name, 'checks-callbacks')));

const inbox = () =>
  t.owner((tx) => tx.select().from(checkCallbackInbox).orderBy(checkCallbackInbox.id));

describe('storing callbacks in batches', () => {
  it('answers each callback of a batch as if alone, with one job per customer', async () => {
    const a1 = await started(customers[0] ?? 0, 'BatchOne');
    const a2 = await started(customers[0] ?? 0, 'BatchTwo');
    const b1 = await started(customers[1] ?? 0, 'BatchThree');
    days.advance(DAY);
    const rowsBefore = (await inbox()).length;
    // an event already stored: a replay
    await runAsSystem(t.app.deps, (ctx) =>
      receiveCallbacks(ctx, [
        { provider: 'dbs-basic', id: a1.activityId, cb: callback(a1.reference, 'x-0') },
      ]),
    );
    const outcomes = await runAsSystem(t.app.deps, (ctx) =>
      receiveCallbacks(ctx, [
        { provider: 'dbs-basic', id: a2.activityId, cb: callback(a2.reference, 'x-7') },
        { provider: 'dbs-basic', id: a1.activityId, cb: callback(a1.reference, 'x-2') },
        { provider: 'dbs-basic', id: b1.activityId, cb: callback(b1.reference, 'x-3') },
        // the same event twice in one batch: stored once
        { provider: 'dbs-basic', id: a2.activityId, cb: callback(a2.reference, 'x-7') },
        { provider: 'dbs-basic', id: a1.activityId, cb: callback(a1.reference, 'x-0') },
        // an activity that does not exist: its own 404, the others stored
        { provider: 'dbs-basic', id: 2_000_000_000, cb: callback(a1.reference, 'x-4') },
        { provider: 'dbs-basic', id: a1.activityId, cb: callback(a1.reference, 'x-1') },
      ]),
    );
    expect(outcomes.slice(0, 5)).toEqual(['stored', 'stored', 'stored', 'duplicate', 'duplicate']);
    expect(outcomes[5]).toBeInstanceOf(NotFoundError);
    expect(outcomes[6]).toBe('stored');
    const rows = (await inbox()).slice(rowsBefore);
    // stored in the order received (not the events' order)
    expect(rows.map((r) => r.eventId)).toEqual(['x-0', 'x-7', 'x-2', 'x-3', 'x-1']);
    expect(rows.find((r) => r.eventId === 'x-3')?.customerId).toBe(customers[1]);
    // the first call's job, then one per customer of the batch
    const ours = [a1.activityId, a2.activityId, b1.activityId];
    const jobs = (await callbackJobs()).filter((j) =>
      ours.includes((j.data as { case_activity_id: number }).case_activity_id),
    );
    expect(jobs).toHaveLength(3);
    expect(jobs.map((j) => (j.data as { customer_id: number }).customer_id).sort()).toEqual(
      [customers[0], customers[0], customers[1]].sort(),
    );
    // the jobs apply every stored callback, each once, in order
    await t.settle();
    expect((await processingOf(a1.activityId)).event_ids).toEqual(['x-0', 'x-2', 'x-1']);
    expect((await processingOf(a2.activityId)).event_ids).toEqual(['x-7']);
    expect((await processingOf(b1.activityId)).event_ids).toEqual(['x-3']);
    const applied = (await inbox()).slice(rowsBefore).map((r) => r.outcome);
    expect(applied).toEqual(['applied', 'applied', 'applied', 'applied', 'applied']);
  });

  it('answers each of a burst of concurrent requests, and applies each once', async () => {
    const a = await started(customers[0] ?? 0, 'Burst');
    days.advance(DAY);
    const ids = Array.from({ length: 30 }, (_, i) => `burst-${i}`);
    const send = (eventId: string, activityId = a.activityId) => {
      const cb = simulator().callbackFor(a.reference, eventId);
      return t.app.inject({
        method: 'POST',
        url: `/callbacks/checks/dbs-basic/${activityId}/`,
        headers: cb.headers,
        payload: cb.body,
      });
    };
    const answers = await Promise.all([
      ...ids.map((e) => send(e)),
      send('burst-0'),
      send('burst-missing', 2_000_000_001),
    ]);
    const statuses = answers.map((r) => `${r.statusCode} ${r.json().status ?? r.json().detail}`);
    // burst-0 and its replay race each other (on PostgreSQL they are really concurrent): one of
    // the two is stored, the other is the duplicate
    expect([statuses[0], statuses[30]].sort()).toEqual(['200 duplicate', '200 stored']);
    expect(statuses.slice(1, 30)).toEqual(ids.slice(1).map(() => '200 stored'));
    expect(statuses[31]).toBe('404 Not found.');
    await t.settle();
    // each once (concurrent requests have no order among them)
    expect((await processingOf(a.activityId)).event_ids.sort()).toEqual([...ids].sort());
  });

  it('stores what arrives while two batches are being stored in one batch', async () => {
    const a = await started(customers[1] ?? 0, 'Group');
    days.advance(DAY);
    const receiver = new CallbackReceiver(t.app.deps);
    const ids = Array.from({ length: 30 }, (_, i) => `group-${i}`);
    const outcomes = await Promise.all(
      ids.map((e) =>
        receiver.receive({ provider: 'dbs-basic', id: a.activityId, cb: callback(a.reference, e) }),
      ),
    );
    expect(outcomes).toEqual(ids.map(() => 'stored'));
    // the first two stored at once, alone; the 28 that waited for them together: three jobs
    const jobs = (await callbackJobs()).filter(
      (j) => (j.data as { case_activity_id: number }).case_activity_id === a.activityId,
    );
    expect(jobs).toHaveLength(3);
    await t.settle();
    // each once; the 28 stored together keep the order they were received in (on PostgreSQL the
    // batch of 28 may start, and its job run, while one of the first two is still committing)
    const applied = (await processingOf(a.activityId)).event_ids;
    expect([...applied].sort()).toEqual([...ids].sort());
    expect(applied.filter((e) => ids.indexOf(e) >= 2)).toEqual(ids.slice(2));
  });

  it('two batches storing the same events in opposite orders both commit (no deadlock)', async () => {
    const a = await started(customers[0] ?? 0, 'Opposite');
    days.advance(DAY);
    const events = Array.from({ length: 200 }, (_, i) => `opp-${i}`);
    const batch = (order: string[]) =>
      runAsSystem(t.app.deps, (ctx) =>
        receiveCallbacks(
          ctx,
          order.map((e) => ({
            provider: 'dbs-basic' as const,
            id: a.activityId,
            cb: callback(a.reference, e),
          })),
        ),
      );
    const [one, two] = await Promise.all([batch(events), batch([...events].reverse())]);
    // each event stored once, by one batch or the other
    const stored = [...(one ?? []), ...(two ?? [])].filter((o) => o === 'stored');
    expect(stored).toHaveLength(events.length);
    const rows = (await inbox()).filter((r) => r.caseActivityId === a.activityId);
    expect(rows.map((r) => r.eventId).sort()).toEqual([...events].sort());
  });

  it('refuses a signed callback holding text the database cannot store, storing nothing', async () => {
    const a = await started(customers[0] ?? 0, 'Unstorable');
    days.advance(DAY);
    const secret = checkEngine(t.app.deps).config.providers['dbs-basic'].callbackSecret;
    const good = callback(a.reference, 'nul-1');
    // the one body parser's answers, as /api/ gives them: the field and what it may not hold
    for (const [body, error] of [
      [JSON.stringify({ ...good, event_id: 'nul-1\u0000' }), { event_id: [NUL_MESSAGE] }],
      [
        JSON.stringify({ ...good, event_id: 'surrogate-\ud800' }),
        { event_id: [UNPAIRED_SURROGATE_MESSAGE] },
      ],
      [
        JSON.stringify({ ...good, reference: `${a.reference}\u0000` }),
        { reference: [NUL_MESSAGE] },
      ],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/callbacks/checks/dbs-basic/${a.activityId}/`,
        headers: {
          'content-type': 'application/json',
          'x-kestrel-signature': signWebhook(
            secret,
            Math.floor(t.clock.now().getTime() / 1000),
            body,
          ),
        },
        payload: body,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(error);
    }
    expect((await inbox()).filter((r) => r.caseActivityId === a.activityId)).toEqual([]);
  });

  it('one callback the database refuses fails alone, the rest of its batch is stored', async () => {
    const a = await started(customers[0] ?? 0, 'Poison');
    days.advance(DAY);
    const receiver = new CallbackReceiver(t.app.deps);
    const ids = Array.from({ length: 12 }, (_, i) => `poison-${i}`);
    const settled = await Promise.allSettled(
      ids.map((e, i) =>
        receiver.receive({
          provider: 'dbs-basic',
          id: a.activityId,
          // past the route's own check: the database refuses a NUL
          cb: callback(a.reference, i === 6 ? `${e}\u0000` : e),
        }),
      ),
    );
    expect(settled.map((r) => r.status)).toEqual(
      ids.map((_, i) => (i === 6 ? 'rejected' : 'fulfilled')),
    );
    await t.settle();
    const applied = (await processingOf(a.activityId)).event_ids;
    expect(applied.sort()).toEqual(ids.filter((_, i) => i !== 6).sort());
  });

  it('answers 503 at once when too many callbacks wait for the database', async () => {
    let release: (err: Error) => void = () => {};
    const hung = new Promise<never>((_, reject) => {
      release = reject;
    });
    const receiver = new CallbackReceiver({
      clock: t.app.deps.clock,
      db: { transaction: (() => hung) as typeof t.app.deps.db.transaction },
    });
    const receipt = {
      provider: 'dbs-basic' as const,
      id: 1,
      cb: { event_id: 'busy' } as ApplicationCallback,
    };
    // two batches being stored, then the backlog
    const held = Array.from({ length: RECEIVE_BACKLOG + 2 }, () => receiver.receive(receipt));
    await expect(receiver.receive(receipt)).rejects.toBeInstanceOf(BusyError);
    release(Object.assign(new Error('connection terminated'), { code: '57P01' }));
    const settled = await Promise.allSettled(held);
    expect(settled.every((r) => r.status === 'rejected')).toBe(true);
  });

  it('a job leaves no callback waiting without a job: more than its budget, another follows', async () => {
    const a = await started(customers[1] ?? 0, 'Budget');
    days.advance(DAY);
    const ids = Array.from({ length: 305 }, (_, i) => `budget-${i}`);
    await runAsSystem(t.app.deps, (ctx) =>
      receiveCallbacks(
        ctx,
        ids.map((e) => ({
          provider: 'dbs-basic' as const,
          id: a.activityId,
          cb: callback(a.reference, e),
        })),
      ),
    );
    const [first] = (await inbox()).filter((r) => r.eventId === 'budget-0');
    if (!first) throw new Error('not stored');
    const before = (await callbackJobs()).length;
    await checksCallbacksJob.handle(
      { case_activity_id: a.activityId, customer_id: customers[1] ?? 0, inbox_id: first.id },
      t.app.deps,
    );
    expect((await processingOf(a.activityId)).event_ids).toHaveLength(300);
    const key = `callbacks-more-${customers[1]}`;
    const more = (await callbackJobs()).filter((j) => j.singletonKey === key);
    expect(more).toHaveLength(1);
    expect((await callbackJobs()).length).toBe(before + 1);
    // due a second later: run it now
    await checksCallbacksJob.handle(
      more[0]?.data as { case_activity_id: number; customer_id: number; inbox_id: number },
      t.app.deps,
    );
    expect((await processingOf(a.activityId)).event_ids).toEqual(ids);
    // nothing waits: no further job
    expect((await callbackJobs()).length).toBe(before + 1);
  });

  it('a batch that fails answers each of its callbacks with the failure, and the next is stored', async () => {
    const a = await started(customers[0] ?? 0, 'Fails');
    days.advance(DAY);
    let down = true;
    const deps = {
      clock: t.app.deps.clock,
      db: {
        transaction: ((settings, fn) =>
          down
            ? Promise.reject(new Error('connection terminated'))
            : t.app.deps.db.transaction(settings, fn)) as typeof t.app.deps.db.transaction,
      },
    };
    const receiver = new CallbackReceiver(deps);
    const receipt = (e: string) => ({
      provider: 'dbs-basic' as const,
      id: a.activityId,
      cb: callback(a.reference, e),
    });
    const failed = await Promise.allSettled(
      ['f-1', 'f-2', 'f-3'].map((e) => receiver.receive(receipt(e))),
    );
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((await inbox()).filter((r) => r.caseActivityId === a.activityId)).toEqual([]);
    down = false;
    expect(await receiver.receive(receipt('f-1'))).toBe('stored');
    await expect(receiver.receive(receipt('f-404-check'))).resolves.toBe('stored');
    await t.settle();
    expect((await processingOf(a.activityId)).event_ids).toEqual(['f-1', 'f-404-check']);
  });
});
