import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  ManualClock,
  type TestApp,
} from '../../../test/helpers.js';
import { caseActivities } from '../activities/activities.table.js';
import { checkEscalations } from '../escalation/check-escalations.table.js';
import { imports } from '../imports/imports.table.js';
import { createPaymentIntent } from '../payments/payments.factories.js';

let t: TestApp;
let ops: Client;
let admin: Client;
let subject: Client;
const now = new Date('2026-11-27T09:00:00Z');
const DAY = 86_400_000;
const ago = (days: number) => new Date(now.getTime() - days * DAY);

beforeAll(async () => {
  t = await buildTestApp({ clock: new ManualClock(now) });
  await t.owner(async (tx) => {
    const acme = (await createCustomer(tx, { name: 'Acme' })).id;
    const other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    await createSubjectUser(tx, { customerId: acme, email: 'sam@example.test' });
    const enhanced = await createProcess(tx, { customerId: acme, requirements: ['dbs-enhanced'] });
    const knowledge = await createProcess(tx, {
      customerId: other,
      requirements: ['knowledge-test'],
    });
    const waitingSince = async (processId: number, customerId: number, days: number) =>
      createCase(tx, {
        customerId,
        processId,
        activityStates: ['ca-awaiting-ops'],
        createdAt: ago(days),
      });
    // enhanced: 2 h (in target), 2 days and 10 days (past 24 h); knowledge test: 2 days (in 72 h)
    await waitingSince(enhanced.id, acme, 2 / 24);
    await waitingSince(enhanced.id, acme, 2);
    await waitingSince(enhanced.id, acme, 10);
    await waitingSince(knowledge.id, other, 2);
    // not waiting: a finished case's, an archived case's
    await createCase(tx, {
      customerId: acme,
      processId: enhanced.id,
      activityStates: ['ca-awaiting-ops'],
      state: 'complete',
    });
    await createCase(tx, {
      customerId: acme,
      processId: enhanced.id,
      activityStates: ['ca-awaiting-ops'],
      archivedAt: ago(1),
    });
    // a provider error (waiting for operations too, for 12 hours)
    await createCase(tx, {
      customerId: acme,
      processId: enhanced.id,
      activityStates: ['ca-error-initiating'],
      createdAt: ago(0.5),
    });
    // completed this week (twice) and 3 weeks ago
    for (const days of [1, 2, 21]) {
      await createCase(tx, {
        customerId: other,
        processId: knowledge.id,
        activityStates: ['ca-complete'],
        createdAt: ago(days),
      });
    }
    // top-ups: declined, awaiting for 3 days, awaiting for an hour, paid
    const intent = async (outcome: 'awaiting' | 'paid' | 'declined') => {
      const pay = await createCase(tx, {
        customerId: acme,
        processId: enhanced.id,
        activityStates: ['ca-awaiting-subject'],
      });
      const [act] = await tx
        .select({ id: caseActivities.id })
        .from(caseActivities)
        .where(eq(caseActivities.caseId, pay.id));
      return createPaymentIntent(tx, {
        customerId: acme,
        caseId: pay.id,
        caseActivityId: act?.id ?? 0,
        outcome,
      });
    };
    // escalations of overdue checks (issue 33): two open (two customers), one resolved
    const escalate = async (customerId: number, resolved: boolean) => {
      const c = await createCase(tx, {
        customerId,
        processId: customerId === acme ? enhanced.id : knowledge.id,
        activityStates: ['ca-in-progress'],
        createdAt: ago(30),
      });
      const [act] = await tx
        .select({ id: caseActivities.id })
        .from(caseActivities)
        .where(eq(caseActivities.caseId, c.id));
      await tx.insert(checkEscalations).values({
        customerId,
        caseId: c.id,
        caseActivityId: act?.id ?? 0,
        expectedOn: '2026-11-20',
        escalatedAt: ago(6),
        resolvedAt: resolved ? ago(1) : null,
      });
    };
    await escalate(acme, false);
    await escalate(other, false);
    await escalate(acme, true);
    await intent('declined');
    const late = await intent('awaiting');
    await tx.execute(
      sql`update payment_intents set created_at = ${ago(3).toISOString()}::timestamptz where id = ${late.id}`,
    );
    await intent('awaiting');
    await intent('paid');
    // imports: one running, one completed
    await tx.insert(imports).values([
      { customerId: acme, fileName: 'staff.csv', state: 'running' },
      { customerId: other, fileName: 'drivers.csv', state: 'completed' },
    ]);
  });
  ops = await login(t.app, 'ops@k.test');
  admin = await login(t.app, 'admin@acme.test');
  subject = await login(t.app, 'sam@example.test');
});
afterAll(() => t.close());

const get = (c: Client) =>
  t.app.inject({ method: 'GET', url: '/api/ops/dashboard/', headers: c.headers });

describe('GET /api/ops/dashboard/', () => {
  it('is for operations only: customer staff and subjects 403', async () => {
    expect((await get(admin)).statusCode).toBe(403);
    expect((await get(subject)).statusCode).toBe(403);
  });

  it('counts what waits by kind and age, throughput, errors and payments', async () => {
    const res = await get(ops);
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json();
    expect(d.waiting).toEqual({
      total: 5,
      past_target: 2,
      unassigned: 5,
      oldest_since: ago(10).toISOString(),
    });
    expect(d.by_kind).toEqual([
      {
        activity_type: 'dbs-enhanced',
        activity_type_name: expect.any(String),
        target_hours: 24,
        count: 4,
        past_target: 2,
        oldest_since: ago(10).toISOString(),
      },
      {
        activity_type: 'knowledge-test',
        activity_type_name: expect.any(String),
        target_hours: 72,
        count: 1,
        past_target: 0,
        oldest_since: ago(2).toISOString(),
      },
    ]);
    expect(d.by_age.map((b: { bucket: string; count: number }) => [b.bucket, b.count])).toEqual([
      ['over-7-days', 1],
      ['3-7-days', 0],
      ['1-3-days', 2],
      ['under-1-day', 2],
    ]);
    expect(d.completed_by_week).toHaveLength(12);
    // Friday 27 November: this week began on Monday the 23rd (1 and 2 days ago are in it)
    expect(d.completed_by_week.at(-1)).toEqual({ week_start: '2026-11-23', count: 2 });
    expect(d.completed_by_week.at(-4)).toEqual({ week_start: '2026-11-02', count: 1 });
    expect(d.completed_by_week.reduce((s: number, w: { count: number }) => s + w.count, 0)).toBe(3);
    expect(d.provider_errors).toBe(1);
    expect(d.dead_jobs).toBe(0);
    expect(d.open_escalations).toBe(2);
    expect(d.payments).toEqual({ declined: 1, awaiting: 1, refunds_unanswered: 0 });
    expect(d.imports_running).toBe(1);
  });

  it('agrees with the outstanding list behind each figure', async () => {
    const list = async (query: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/ops/outstanding-activities/?${query}`,
          headers: ops.headers,
        })
      ).json().count;
    expect(await list('')).toBe(5);
    expect(await list('past_target=true')).toBe(2);
    expect(await list('activity_type=dbs-enhanced&past_target=true')).toBe(2);
    expect(await list('older_than_days=7')).toBe(1);
    expect(await list('older_than_days=1&newer_than_days=3')).toBe(2);
    expect(await list('newer_than_days=1')).toBe(2);
    expect(await list('assignee=unassigned')).toBe(5);
    expect(await list('state=ca-error-initiating')).toBe(1);
    const escalations = await t.app.inject({
      method: 'GET',
      url: '/api/ops/escalations/?status=open',
      headers: ops.headers,
    });
    expect(escalations.json().count).toBe(2);
  });
});
