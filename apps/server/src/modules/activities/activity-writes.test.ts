// @postgres: a provider answer locks its activity and case (FOR UPDATE) and writes them once

import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  ManualClock,
  type TestApp,
} from '../../../test/helpers.js';
import { txQuery } from '../../db/connection.js';
import { jobActor } from '../../jobs/service-job.js';
import { runInTenant } from '../../platform/service-context.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { DisclosureSimulator } from '../../providers/dbs-basic/simulator.js';
import { createCaseBasicDetails } from '../case-data/case-data.factories.js';
import { readChecksConfig } from '../checks/config.js';
import { activitiesSubmitted } from '../checks/hooks.js';
import { checkEngine, createCheckEngine, useCheckEngine } from '../checks/providers.js';
import { caseActivities } from './activities.table.js';
import { ACTIVITY_CT } from './activity-state.js';

// Issue 27: a provider's answer applied to an activity locks it (with its case) once, and writes
// and audits it once: its processing data, its state and its result in one UPDATE, one audit row.
const DAY = 24 * 60 * 60 * 1000;
let t: TestApp;
let acme: number;
const days = new ManualClock(new Date());

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    await createAdminAndViewer(tx, acme);
    // Every UPDATE of an activity row, counted by a trigger (as the owner: the app's roles
    // cannot write this table, the trigger's function can).
    await txQuery(tx, 'create table test_activity_updates (activity_id integer not null)', []);
    await txQuery(
      tx,
      `create function test_count_activity_update() returns trigger
         language plpgsql security definer as $$
       begin insert into test_activity_updates values (new.id); return new; end $$`,
      [],
    );
    await txQuery(
      tx,
      `create trigger test_count_activity_update after update on case_activities
         for each row execute function test_count_activity_update()`,
      [],
    );
  });
  useCheckEngine(
    t.app.deps,
    createCheckEngine(t.app.deps, readChecksConfig({}, t.app.deps.secrets), days),
  );
});
afterAll(() => t.close());

async function counts(activityId: number) {
  return t.owner(async (tx) => {
    const { rows } = await txQuery(
      tx,
      'select count(*)::int as n from test_activity_updates where activity_id = $1',
      [activityId],
    );
    const [audits] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(auditActions)
      .where(
        sql`${auditActions.contentType} = ${ACTIVITY_CT} and ${auditActions.objectId} = ${String(activityId)}`,
      );
    return { updates: Number(rows[0]?.n), audits: Number(audits?.n) };
  });
}

describe('a provider answer applied to an activity', () => {
  it('is one UPDATE of the activity and one audit row', async () => {
    const k = await t.owner(async (tx) => {
      const p = await createProcess(tx, {
        customerId: acme,
        requirements: [{ code: 'dbs-basic' }],
      });
      const c = await createCase(tx, { customerId: acme, processId: p.id });
      await createCaseBasicDetails(
        tx,
        { customerId: acme, caseId: c.id },
        { forename: 'Ada', surname: 'Once', dob: '1990-01-01' },
      );
      const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.caseId, c.id));
      if (!a) throw new Error('no activity');
      return { caseId: c.id, activityId: a.id };
    });
    await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
      activitiesSubmitted(ctx, k.caseId, [k.activityId]),
    );
    await t.settle();
    const [started] = await t.owner((tx) =>
      tx.select().from(caseActivities).where(eq(caseActivities.id, k.activityId)),
    );
    if (!started) throw new Error('no activity');
    const { reference } = started.processingData;
    if (typeof reference !== 'string') throw new Error('not sent to the provider');
    expect(started.state).toBe('ca-in-progress');

    // The provider calls back with the finished check: stored, then applied by its job.
    days.advance(60 * DAY);
    const p = checkEngine(t.app.deps).providers.get('dbs-basic');
    if (!(p instanceof DisclosureSimulator)) throw new Error('not the simulator');
    const cb = p.callbackFor(reference, 'once-1');
    const res = await t.app.inject({
      method: 'POST',
      url: `/callbacks/checks/dbs-basic/${k.activityId}/`,
      headers: cb.headers,
      payload: cb.body,
    });
    expect(res.json()).toEqual({ status: 'stored' });
    const before = await counts(k.activityId);
    await t.settle();
    const after = await counts(k.activityId);

    const [done] = await t.owner((tx) =>
      tx.select().from(caseActivities).where(eq(caseActivities.id, k.activityId)),
    );
    // the answer moved it, wrote its result and its provider log
    if (!done) throw new Error('no activity');
    expect(done.state).not.toBe('ca-in-progress');
    expect(done.resultData).toHaveProperty('disclosure');
    expect(done.processingData).toMatchObject({ event_ids: ['once-1'] });
    expect(after.updates - before.updates).toBe(1);
    expect(after.audits - before.audits).toBe(1);
    const [audit] = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          sql`${auditActions.contentType} = ${ACTIVITY_CT} and ${auditActions.objectId} = ${String(k.activityId)}`,
        )
        .orderBy(sql`${auditActions.id} desc`)
        .limit(1),
    );
    // the one row says all of it: the move, the result, and the provider log's new event
    expect(audit?.changes).toMatchObject({
      state: ['ca-in-progress', done.state],
      processing_data: { event: { type: 'callback', event_id: 'once-1' } },
    });
    expect(audit?.changes).toHaveProperty('result_data');
  });
});
