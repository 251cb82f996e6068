import { ENGINE_ACTIVITY_MESSAGES, initialProcessingData } from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, createCase, createProcess, type TestApp } from '../../../test/helpers.js';
import { kindsWorld } from '../../../test/kinds.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';

// A check the engine runs moves with its provider: customer staff may cancel it (or decide it once
// it waits for a decision) through PATCH /api/case-activities/{id}/, never move it on or write its
// result; operations may override by hand (audited), in the engine's shapes only. Other kinds keep
// the domain's transitions.

const world = kindsWorld({ app: { config: { jobWorkers: false } } });
let t: TestApp;
let acme: number;
let admin: Client;
let ops: Client;
beforeAll(() => {
  ({ t, acme, admin, ops } = world);
});

async function activityIn(code: string, state: string): Promise<number> {
  return t.owner(async (tx) => {
    const p = await createProcess(tx, { customerId: acme, requirements: [code] });
    const c = await createCase(tx, {
      customerId: acme,
      processId: p.id,
      activityStates: [state as 'ca-pending'],
    });
    const [a] = await tx
      .select({ id: caseActivities.id })
      .from(caseActivities)
      .where(eq(caseActivities.caseId, c.id));
    return a?.id ?? 0;
  });
}

const patch = (who: Client, id: number, body: object, prefix = '/api/') =>
  t.app.inject({
    method: 'PATCH',
    url: `${prefix}case-activities/${id}/`,
    headers: who.headers,
    payload: body,
  });

async function rowOf(id: number) {
  const [row] = await t.owner((tx) =>
    tx
      .select({ row: caseActivities, code: activityTypes.code })
      .from(caseActivities)
      .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
      .where(eq(caseActivities.id, id)),
  );
  return row?.row;
}

describe('hand edits of a check the engine runs', () => {
  it.each([
    ['dbs-enhanced', 'ca-awaiting-agent', 'ca-in-progress'],
    ['dbs-enhanced', 'ca-in-progress', 'ca-complete'],
    ['dbs-basic', 'ca-error-initiating', 'ca-in-progress'],
    ['dbs-update', 'ca-in-progress', 'ca-complete'],
  ])('%s: customer staff cannot move it from %s to %s', async (code, from, to) => {
    const id = await activityIn(code, from);
    const res = await patch(admin, id, { state: to });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ state: [ENGINE_ACTIVITY_MESSAGES.state] });
    expect((await rowOf(id))?.state).toBe(from);
  });

  it('customer staff cancel it at any time, and decide it once it waits for a decision', async () => {
    const open = await activityIn('dbs-enhanced', 'ca-awaiting-agent');
    expect((await patch(admin, open, { state: 'ca-cancelled' })).statusCode).toBe(200);
    expect((await rowOf(open))?.state).toBe('ca-cancelled');
    const waiting = await activityIn('dbs-update', 'ca-pending-activity-decision');
    expect((await patch(admin, waiting, { state: 'ca-complete' })).statusCode).toBe(200);
    expect((await rowOf(waiting))?.state).toBe('ca-complete');
  });

  it('customer staff never write its result', async () => {
    const id = await activityIn('dbs-enhanced', 'ca-in-progress');
    const res = await patch(admin, id, { result_data: { disclosure: { status: 'clear' } } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ result_data: [ENGINE_ACTIVITY_MESSAGES.resultData] });
    expect((await rowOf(id))?.resultData).toEqual({});
  });

  it('operations override by hand, in the engine’s shapes only', async () => {
    const id = await activityIn('dbs-enhanced', 'ca-awaiting-agent');
    const started = initialProcessingData('ebulk', `kestrel-ca-${id}`);
    await t.owner((tx) =>
      tx.update(caseActivities).set({ processingData: started }).where(eq(caseActivities.id, id)),
    );
    const bad = await patch(
      ops,
      id,
      { processing_data: { reference: 'X' }, result_data: { disclosure: 'clear' } },
      '/api/ops/',
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      processing_data: [ENGINE_ACTIVITY_MESSAGES.processingData],
      result_data: [ENGINE_ACTIVITY_MESSAGES.resultShape],
    });
    expect((await rowOf(id))?.processingData).toEqual(started);
    const result = { application: { reference: 'E0012345678', received_date: '2026-11-20' } };
    const good = await patch(
      ops,
      id,
      {
        state: 'ca-in-progress',
        processing_data: { ...started, reference: 'E0012345678' },
        result_data: result,
      },
      '/api/ops/',
    );
    expect(good.statusCode, good.body).toBe(200);
    const row = await rowOf(id);
    expect(row?.state).toBe('ca-in-progress');
    expect(row?.resultData).toEqual(result);
    expect(row?.processingData).toMatchObject({ reference: 'E0012345678' });
  });

  it('leaves other kinds to the domain: an ops-worked activity still moves by hand', async () => {
    const id = await activityIn('adult-first', 'ca-awaiting-agent');
    const res = await patch(admin, id, { state: 'ca-in-progress' });
    expect(res.statusCode, res.body).toBe(200);
  });
});
