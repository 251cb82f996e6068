import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createCase, createProcess, type TestApp } from '../../../test/helpers.js';
import { kindsWorld } from '../../../test/kinds.js';
import { jobActor } from '../../jobs/service-job.js';
import { runInTenant } from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import { createCaseBasicDetails } from '../case-data/case-data.factories.js';
import { activitiesSubmitted } from './hooks.js';
import { SIMULATOR_CONTROL_ENV, simulatorControlEnabled } from './simulator-control.js';

beforeAll(() => {
  process.env[SIMULATOR_CONTROL_ENV] = '1';
});
const world = kindsWorld();
let t: TestApp;
let acme: number;
let admin: Client;
let ops: Client;
beforeAll(() => {
  ({ t, acme, admin, ops } = world);
});
afterAll(() => {
  delete process.env[SIMULATOR_CONTROL_ENV];
});

const advance = (c: Client, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/ops/checks/simulator/advance/',
    headers: c.headers,
    payload,
  });

async function activity(id: number) {
  const [row] = await t.owner((tx) =>
    tx.select().from(caseActivities).where(eq(caseActivities.id, id)),
  );
  return row;
}

describe('the simulated providers clock control (browser tests only)', () => {
  it('is off unless asked for, and never with a real provider', () => {
    expect(simulatorControlEnabled({})).toBe(false);
    expect(simulatorControlEnabled({ [SIMULATOR_CONTROL_ENV]: '1' })).toBe(true);
    expect(
      simulatorControlEnabled({
        [SIMULATOR_CONTROL_ENV]: '1',
        EBULK_API_URL: 'https://ebulk.example',
        EBULK_API_KEY: 'k',
      }),
    ).toBe(false);
  });

  it('moves a basic check through its stages over simulated days, for operations only', async () => {
    const { caseId, activityId } = await t.owner(async (tx) => {
      const p = await createProcess(tx, { customerId: acme, requirements: ['dbs-basic'] });
      const c = await createCase(tx, { customerId: acme, processId: p.id });
      await createCaseBasicDetails(
        tx,
        { customerId: acme, caseId: c.id },
        { forename: 'Ada', surname: 'Smith', dob: '1990-01-01' },
      );
      const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.caseId, c.id));
      return { caseId: c.id, activityId: a?.id ?? 0 };
    });
    await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
      activitiesSubmitted(ctx, caseId, [activityId]),
    );
    await t.settle();
    expect((await activity(activityId))?.state).toBe('ca-in-progress');
    expect((await advance(admin, { activity: activityId, days: 1 })).statusCode).toBe(403);
    expect((await advance(ops, { activity: activityId, days: -1 })).statusCode).toBe(400);
    const day1 = await advance(ops, { activity: activityId, days: 1 });
    expect(day1.statusCode).toBe(200);
    expect(day1.json()).toMatchObject({ found: true });
    const mid = await activity(activityId);
    expect(mid?.state).toBe('ca-in-progress');
    expect(JSON.stringify(mid?.resultData)).toContain('police_computer_search_date');
    expect((await advance(ops, { activity: activityId, days: 1 })).statusCode).toBe(200);
    const done = await activity(activityId);
    expect(done?.state).toBe('ca-complete');
    expect(done?.resultData).toMatchObject({ disclosure: { status: 'clear' } });
    expect((await advance(ops, { activity: 99_999, days: 0 })).json()).toMatchObject({
      found: false,
    });
  });
});
