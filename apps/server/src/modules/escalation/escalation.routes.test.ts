// @postgres: two app instances running the checks-overdue job at once escalate each check once (skip locked, unique key)
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { caseActivities } from '../activities/activities.table.js';
import { flags } from '../flags/flags.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { checkEscalations } from './check-escalations.table.js';
import { runEscalations } from './escalation-job.js';

let t: TestApp;
let acme: number;
let caseId: number;
let dbs: number;
let licence: number;
const DAY = 86_400_000;
const today = () => t.clock.now().toISOString().slice(0, 10);
const plus = (n: number) => new Date(t.clock.now().getTime() + n * DAY).toISOString().slice(0, 10);

const get = async (url: string, who = 'admin@acme.test') => {
  const c = await login(t.app, who);
  return t.app.inject({ method: 'GET', url, headers: c.headers });
};

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    const other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    await createAdminAndViewer(tx, other, 'other.test');
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    const p = await createProcess(tx, {
      customerId: acme,
      requirements: ['dbs-basic', 'licence-check', 'basic-details'],
    });
    const c = await createCase(tx, {
      customerId: acme,
      processId: p.id,
      activityStates: ['ca-in-progress', 'ca-in-progress', 'ca-complete'],
      createdAt: t.clock.now(),
    });
    caseId = c.id;
    await tx
      .update(subjects)
      .set({ firstName: 'Sam', lastName: 'Okafor' })
      .where(eq(subjects.id, c.subjectId));
    const acts = await tx
      .select()
      .from(caseActivities)
      .where(eq(caseActivities.caseId, c.id))
      .orderBy(caseActivities.position);
    dbs = acts[0]?.id ?? 0;
    licence = acts[1]?.id ?? 0;
    // the DVLA answers the licence by hand (DQ3): 28 working days from today
    await tx
      .update(caseActivities)
      .set({ resultData: { status: 'DQ3', last_check_date: today() } })
      .where(eq(caseActivities.id, licence));
  });
});
afterAll(() => t.close());

describe('expected completion dates and escalation (a moved clock)', () => {
  it("shows each open check's expected date on the case", async () => {
    const res = await get(`/api/cases/${caseId}/expected-dates/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        activity_id: dbs,
        expected_on: plus(14),
        basis: 'Typically 14 days from the DBS receiving the application.',
        overdue: false,
        escalated: false,
      },
      expect.objectContaining({ activity_id: licence, overdue: false, escalated: false }),
    ]);
    expect((await get(`/api/cases/${caseId}/expected-dates/`, 'admin@other.test')).statusCode).toBe(
      404,
    );
  });

  it('escalates a check past its date once: a flag for the customer, the ops list', async () => {
    expect(await runEscalations(t.app.deps, acme)).toEqual({ escalated: 0 });
    const expected = plus(14);
    t.clock.advance(15 * DAY);
    expect(await runEscalations(t.app.deps, acme)).toEqual({ escalated: 1 });
    const twin = await t.twin();
    expect(await runEscalations(twin.deps, acme)).toEqual({ escalated: 0 });
    const rows = await t.owner((tx) => tx.select().from(checkEscalations));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ caseActivityId: dbs, expectedOn: expected, resolvedAt: null });
    const [flag] = await t.owner((tx) =>
      tx
        .select()
        .from(flags)
        .where(eq(flags.id, rows[0]?.flagId ?? 0)),
    );
    expect(flag).toMatchObject({ caseId, kind: 'rule', active: true });
    expect(flag?.message).toContain(`is taking longer than expected (expected by ${expected})`);
    const dates = (await get(`/api/cases/${caseId}/expected-dates/`)).json();
    expect(dates[0]).toMatchObject({ overdue: true, escalated: true });
    expect(dates[1]).toMatchObject({ overdue: false, escalated: false });
    const ops = await get('/api/ops/escalations/', 'ops@k.test');
    expect(ops.statusCode).toBe(200);
    expect(ops.json()).toMatchObject({
      count: 1,
      results: [
        { customer_name: 'Acme', case_id: caseId, activity_id: dbs, expected_on: expected },
      ],
    });
    expect((await get('/api/ops/escalations/')).statusCode).toBe(403);
  });

  it('resolves the escalation once the check is done', async () => {
    await t.owner((tx) =>
      tx.update(caseActivities).set({ state: 'ca-complete' }).where(eq(caseActivities.id, dbs)),
    );
    expect(await runEscalations(t.app.deps, acme)).toEqual({ escalated: 0 });
    const [row] = await t.owner((tx) => tx.select().from(checkEscalations));
    expect(row?.resolvedAt).not.toBeNull();
    expect((await get('/api/ops/escalations/', 'ops@k.test')).json().count).toBe(0);
    // 30 more days: the licence's manual answer is overdue too (28 working days)
    t.clock.advance(30 * DAY);
    expect(await runEscalations(t.app.deps, acme)).toEqual({ escalated: 1 });
  });

  it('lists for operations with the subject, days overdue, status and customer filters, pages', async () => {
    const ops = async (query: string) => {
      const res = await get(`/api/ops/escalations/?${query}`, 'ops@k.test');
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    // the licence's escalation is open (escalated today, a day past its date); the DBS one resolved
    const open = await ops('');
    expect(open.count).toBe(1);
    expect(open.results[0]).toMatchObject({
      customer_id: acme,
      customer_name: 'Acme',
      case_id: caseId,
      subject_id: expect.any(Number),
      subject_name: 'Sam Okafor',
      activity_id: licence,
      resolved_at: null,
    });
    expect(open.results[0].days_overdue).toBeGreaterThanOrEqual(1);
    const resolved = await ops('status=resolved');
    expect(resolved.count).toBe(1);
    // resolved on day 15, the day after its date: 1 day past, frozen there (30 days later still)
    expect(resolved.results[0]).toMatchObject({
      activity_id: dbs,
      resolved_at: expect.any(String),
      days_overdue: 1,
    });
    // both, the open first; a page of one
    const all = await ops('status=all&page_size=1');
    expect(all.count).toBe(2);
    expect(all.results.map((r: { activity_id: number }) => r.activity_id)).toEqual([licence]);
    const second = await ops('status=all&page_size=1&page=2');
    expect(second.results.map((r: { activity_id: number }) => r.activity_id)).toEqual([dbs]);
    // by customer: another customer has none
    expect((await ops(`status=all&customer=${acme}`)).count).toBe(2);
    expect((await ops(`status=all&customer=${acme + 1000}`)).count).toBe(0);
    expect((await get('/api/ops/escalations/?status=bogus', 'ops@k.test')).statusCode).toBe(400);
  });
});
