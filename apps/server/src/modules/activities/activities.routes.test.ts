import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../audit/audit.table.js';
import { caseActivities } from '../cases/cases.table.js';

let t: TestApp;
let acme: number;
let proc: number;
let foreignActivity: number;
let admin: Client;
let viewer: Client;

const activitiesOf = (caseId: number) =>
  t.owner((tx) =>
    tx
      .select()
      .from(caseActivities)
      .where(eq(caseActivities.caseId, caseId))
      .orderBy(caseActivities.position),
  );

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    const other = (await createCustomer(tx, { name: 'Other' })).id;
    proc = (
      await createProcess(tx, { customerId: acme, requirements: ['basic-details', 'dbs-basic'] })
    ).id;
    const oc = await createCase(tx, { customerId: other });
    const [fa] = await tx.select().from(caseActivities).where(eq(caseActivities.caseId, oc.id));
    foreignActivity = fa?.id ?? 0;
    await createAdminAndViewer(tx, acme);
  });
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
});
afterAll(() => t.close());

const call = (c: Client, method: 'GET' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: c.headers, ...(payload ? { payload } : {}) });

describe('/api/case-activities/', () => {
  it('lists by case with the case and subject; another tenant is 404', async () => {
    const c = await t.owner((tx) => createCase(tx, { customerId: acme, processId: proc }));
    const res = await call(viewer, 'GET', `/api/case-activities/?case=${c.id}&ordering=created_at`);
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBe(2);
    expect(res.json().results[0]).toMatchObject({
      case: { id: c.id, state: 'awaiting-subject' },
      state: 'ca-awaiting-subject',
      state_display: 'Awaiting subject',
      activity_type: 'basic-details',
      key: 'basic-details',
      processing_data: {},
      notes: '',
    });
    // the case carries its activities in brief (point 3: case with subject and case_activities)
    expect(res.json().results[0].case.case_activities).toEqual([
      expect.objectContaining({ activity_type: 'basic-details', state: 'ca-awaiting-subject' }),
      expect.objectContaining({
        activity_type: 'dbs-basic',
        activity_type_name: expect.any(String),
      }),
    ]);
    expect(
      (await call(viewer, 'GET', '/api/case-activities/?activity_type=dbs-basic')).json().count,
    ).toBeGreaterThan(0);
    expect((await call(viewer, 'GET', '/api/case-activities/?state=nope')).statusCode).toBe(400);
    expect((await call(viewer, 'GET', `/api/case-activities/${foreignActivity}/`)).statusCode).toBe(
      404,
    );
    expect(
      (
        await call(admin, 'PATCH', `/api/case-activities/${foreignActivity}/`, {
          state: 'ca-in-progress',
        })
      ).statusCode,
    ).toBe(404);
  });

  it('keeps notes on an activity, audited', async () => {
    const c = await t.owner((tx) => createCase(tx, { customerId: acme, processId: proc }));
    const [a] = await activitiesOf(c.id);
    const res = await call(admin, 'PATCH', `/api/case-activities/${a?.id}/`, {
      notes: '  Called the referee.  ',
    });
    expect([res.statusCode, res.json().notes]).toEqual([200, 'Called the referee.']);
    const tooLong = await call(admin, 'PATCH', `/api/case-activities/${a?.id}/`, {
      notes: 'x'.repeat(5001),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(Object.keys(tooLong.json())).toEqual(['notes']);
    const denied = await call(viewer, 'PATCH', `/api/case-activities/${a?.id}/`, { notes: 'no' });
    expect(denied.statusCode).toBe(403);
    const [audit] = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(and(eq(auditActions.objectId, String(a?.id)), eq(auditActions.verb, 'updated'))),
    );
    expect(audit?.changes).toEqual({ notes: ['', 'Called the referee.'] });
  });

  it('moves an activity as the domain allows and the case follows its activities', async () => {
    const c = await t.owner((tx) => createCase(tx, { customerId: acme, processId: proc }));
    const [a1, a2] = await activitiesOf(c.id);
    if (!a1 || !a2) throw new Error('activities missing');
    expect(
      (await call(viewer, 'PATCH', `/api/case-activities/${a1.id}/`, { state: 'ca-in-progress' }))
        .statusCode,
    ).toBe(403);
    const r1 = await call(admin, 'PATCH', `/api/case-activities/${a1.id}/`, {
      state: 'ca-complete',
    });
    expect(r1.statusCode).toBe(200);
    expect(r1.json()).toMatchObject({ state: 'ca-complete', case: { state: 'awaiting-subject' } });
    expect(r1.json().completed_at).not.toBeNull();
    const r2 = await call(admin, 'PATCH', `/api/case-activities/${a2.id}/`, {
      state: 'ca-in-progress',
    });
    expect(r2.json().case.state).toBe('in-progress');
    const r3 = await call(admin, 'PATCH', `/api/case-activities/${a2.id}/`, {
      state: 'ca-complete',
    });
    expect(r3.json().case.state).toBe('pending-case-decision');
    const refused = await call(admin, 'PATCH', `/api/case-activities/${a1.id}/`, {
      state: 'ca-in-progress',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      state: ["Cannot change an activity from 'ca-complete' to 'ca-in-progress'."],
    });
    expect(
      (await call(admin, 'PATCH', `/api/case-activities/${a1.id}/`, { state: 'ca-bogus' }))
        .statusCode,
    ).toBe(400);
    const rows = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.verb, 'state_changed'),
            eq(auditActions.contentType, 'cases.case'),
            eq(auditActions.objectId, String(c.id)),
          ),
        ),
    );
    expect(rows.map((r) => r.changes)).toEqual([
      { state: ['awaiting-subject', 'in-progress'] },
      { state: ['in-progress', 'pending-case-decision'] },
    ]);
  });
});

describe('/api/outstanding-activities/', () => {
  it('lists activities waiting for the customer, oldest first, of open cases only', async () => {
    const [older, newer, closed] = await t.owner(async (tx) => [
      await createCase(tx, {
        customerId: acme,
        processId: proc,
        activityStates: ['ca-complete', 'ca-awaiting-agent'],
        createdAt: new Date('2026-01-01T00:00:00Z'),
      }),
      await createCase(tx, {
        customerId: acme,
        processId: proc,
        activityStates: ['ca-pending-activity-decision'],
        createdAt: new Date('2026-02-01T00:00:00Z'),
      }),
      await createCase(tx, {
        customerId: acme,
        processId: proc,
        activityStates: ['ca-awaiting-agent'],
        state: 'cancelled',
      }),
    ]);
    const res = await call(viewer, 'GET', '/api/outstanding-activities/');
    expect(res.statusCode).toBe(200);
    const caseIds = res.json().results.map((a: { case: { id: number } }) => a.case.id);
    expect(caseIds).toEqual([older.id, newer.id, newer.id]);
    expect(caseIds).not.toContain(closed.id);
    const first = res.json().results[0].id;
    expect((await call(viewer, 'GET', `/api/outstanding-activities/${first}/`)).json().state).toBe(
      'ca-awaiting-agent',
    );
    const [done] = await activitiesOf(older.id);
    expect((await call(viewer, 'GET', `/api/outstanding-activities/${done?.id}/`)).statusCode).toBe(
      404,
    );
  });
});
