// @postgres: the check engine's callback inbox and polls, applied by jobs

import type { DbsResultData } from '@kestrel/domain';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCase, createProcess, ManualClock, type TestApp } from '../../../test/helpers.js';
import { type ActivityOut, kindsWorld } from '../../../test/kinds.js';
import { queueJobs } from '../../platform/jobs.js';
import { runInTenant } from '../../platform/service-context.js';
import { DisclosureSimulator } from '../../providers/dbs-basic/simulator.js';
import { caseActivities } from '../activities/activities.table.js';
import { createCaseBasicDetails } from '../case-data/case-data.factories.js';
import { redactActivityResult } from '../retention/redact.js';
import { jobActorOf } from './activity.js';
import { checkCallbackInbox } from './callbacks.table.js';
import { pollActivity } from './engine.js';
import { cancelChecksOfCases } from './erasure.js';
import { checkEngine } from './providers.js';

// Issue 34 (review D1): a provider's answer about an activity whose result was redacted (an
// erasure, a retention rule) while it was with the provider is not stored: the result stays as
// redacted, the provider log and the inbox keep no content, the audit log names the event only.
const DAY = 24 * 60 * 60 * 1000;
const days = new ManualClock(new Date());
const world = kindsWorld({
  app: { config: { jobWorkers: false } },
  ops: false,
  providerClock: days,
});
let t: TestApp;
let acme: number;
beforeAll(() => {
  ({ t, acme } = world);
});

async function openCase(surname: string) {
  return t.owner(async (tx) => {
    const p = await createProcess(tx, {
      customerId: acme,
      requirements: [{ code: 'dbs-basic', config: {} }],
    });
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

type Out = ActivityOut<DbsResultData> & {
  processing_data: { reference: string; events: { type: string; body: unknown }[] };
};
const activity = async (id: number) => (await world.activity<DbsResultData>(id)) as Out;

const simulator = () => {
  const p = checkEngine(t.app.deps).providers.get('dbs-basic');
  if (!(p instanceof DisclosureSimulator)) throw new Error('not the simulator');
  return p;
};

/** A started check, erased while with the provider, whose application then completes. */
async function erasedAtProvider(surname: string) {
  const k = await openCase(surname);
  await world.submitActivities(k);
  const started = await activity(k.activityId);
  expect(started.state).toBe('ca-in-progress');
  const done = await runInTenant(t.app.deps, jobActorOf(acme), (ctx) =>
    redactActivityResult(ctx, k.activityId, 'erasure'),
  );
  expect(done).not.toBeNull();
  const redacted = await activity(k.activityId);
  days.advance(10 * DAY); // the application is complete at the provider
  return { ...k, reference: started.processing_data.reference, redacted };
}

/** Every audit row about the activity, as text. */
const auditText = (activityId: number) =>
  t.owner(async (tx) => {
    const rows = await tx.execute<{ changes: unknown }>(
      sql`select changes from audit_actions
          where content_type = 'cases.caseactivity' and object_id = ${String(activityId)}
          order by id`,
    );
    return rows.map((r) => JSON.stringify(r.changes));
  });

/** The checks-poll jobs queued for the activity. */
const pollsOf = (activityId: number) =>
  t.owner((tx) =>
    tx
      .select()
      .from(queueJobs)
      .where(
        and(
          eq(queueJobs.name, 'checks-poll'),
          sql`${queueJobs.data}->>'case_activity_id' = ${String(activityId)}`,
        ),
      ),
  );

/** The provider's callback `cb` about the activity, posted to the callback URL. */
const sendCallback = (activityId: number, cb: { headers: Record<string, string>; body: string }) =>
  t.app.inject({
    method: 'POST',
    url: `/callbacks/checks/dbs-basic/${activityId}/`,
    headers: cb.headers,
    payload: cb.body,
  });

/** The activity's row in the callback inbox. */
const inboxRow = async (activityId: number) =>
  (
    await t.owner((tx) =>
      tx.select().from(checkCallbackInbox).where(eq(checkCallbackInbox.caseActivityId, activityId)),
    )
  )[0];

describe('an answer about a redacted activity', () => {
  it('a callback is not stored: result, log and inbox keep no content; audited by its event', async () => {
    const k = await erasedAtProvider('Erased');
    const cb = simulator().callbackFor(k.reference, 'erased-1');
    // the callback carries the completed application (the disclosure's content)
    expect(JSON.stringify(cb.body)).toContain('certificate_number');
    const res = await sendCallback(k.activityId, cb);
    expect(res.statusCode).toBe(200);
    await t.settle();
    const after = await activity(k.activityId);
    expect(after.result_data).toEqual(k.redacted.result_data);
    expect(after.state).toBe(k.redacted.state);
    const last = after.processing_data.events.at(-1);
    expect(last).toMatchObject({ type: 'callback', body: { redacted: 'erasure' } });
    expect(JSON.stringify(after.processing_data)).not.toContain('certificate_number');
    const row = await inboxRow(k.activityId);
    expect(row?.body).toEqual({ redacted: 'erasure' });
    expect(row?.outcome).toBe('rejected');
    const audit = await auditText(k.activityId);
    expect(audit.some((c) => c.includes('erased-1'))).toBe(true);
    expect(audit.some((c) => c.includes('not_kept'))).toBe(true);
    const since = audit.slice(audit.findIndex((c) => c.includes('erased-1')));
    for (const c of since) {
      expect(c).not.toContain('certificate_number');
      expect(c).not.toContain('police_computer_search_date');
    }
  });

  it('a poll is not stored and the engine stops polling the application', async () => {
    const k = await erasedAtProvider('Polled');
    await t.owner((tx) => tx.delete(queueJobs).where(eq(queueJobs.name, 'checks-poll')));
    await pollActivity(t.app.deps, { case_activity_id: k.activityId, customer_id: acme });
    const after = await activity(k.activityId);
    expect(after.result_data).toEqual(k.redacted.result_data);
    expect(after.processing_data.events.at(-1)).toMatchObject({
      type: 'poll',
      body: { redacted: 'erasure' },
    });
    expect(JSON.stringify(after.processing_data)).not.toContain('certificate_number');
    const polls = await pollsOf(k.activityId);
    expect(polls).toEqual([]);
    for (const c of await auditText(k.activityId)) {
      expect(c).not.toContain('certificate_number');
    }
  });

  it("a start's answer (the path of the DVLA's and the identity provider's answers) is not stored", async () => {
    const k = await openCase('Started');
    // redacted before its start's answer came back (here: before the start itself)
    await runInTenant(t.app.deps, jobActorOf(acme), (ctx) =>
      redactActivityResult(ctx, k.activityId, 'erasure'),
    );
    const redacted = await activity(k.activityId);
    await world.submitActivities(k);
    const after = await activity(k.activityId);
    expect(after.result_data).toEqual(redacted.result_data);
    const said = after.processing_data.events.filter((e) => ['request', 'answer'].includes(e.type));
    expect(said.map((e) => e.type)).toEqual(['request', 'answer']);
    for (const e of said) expect(e.body).toEqual({ redacted: 'erasure' });
    const polls = await pollsOf(k.activityId);
    expect(polls).toEqual([]);
    expect((await auditText(k.activityId)).some((c) => c.includes('not_kept'))).toBe(true);
  });

  it('an erasure cancels the checks of the cases (cancelChecksOfCases); a callback after is recorded only', async () => {
    const k = await openCase('Cancelled');
    await world.submitActivities(k);
    const started = await activity(k.activityId);
    expect(started.state).toBe('ca-in-progress');
    // what the erasure does in its transaction: the results redacted, the checks cancelled
    const cancelled = await runInTenant(t.app.deps, jobActorOf(acme), async (ctx) => {
      await redactActivityResult(ctx, k.activityId, 'erasure');
      return cancelChecksOfCases(ctx, acme, [k.caseId]);
    });
    expect(cancelled).toEqual([k.activityId]);
    const redacted = await activity(k.activityId);
    expect(redacted.state).toBe('ca-cancelled');
    // a second call finds nothing open
    expect(
      await runInTenant(t.app.deps, jobActorOf(acme), (ctx) =>
        cancelChecksOfCases(ctx, acme, [k.caseId]),
      ),
    ).toEqual([]);
    days.advance(10 * DAY);
    // a poll already queued finds it closed: nothing asked, nothing written
    await pollActivity(t.app.deps, { case_activity_id: k.activityId, customer_id: acme });
    expect((await activity(k.activityId)).processing_data).toEqual(redacted.processing_data);
    const cb = simulator().callbackFor(started.processing_data.reference, 'cancelled-1');
    const res = await sendCallback(k.activityId, cb);
    expect(res.statusCode).toBe(200);
    await t.settle();
    const after = await activity(k.activityId);
    expect(after.state).toBe('ca-cancelled');
    expect(after.result_data).toEqual(redacted.result_data);
    expect(JSON.stringify(after.processing_data)).not.toContain('certificate_number');
    const row = await inboxRow(k.activityId);
    expect(row?.body).toEqual({ redacted: 'erasure' });
  });
});
