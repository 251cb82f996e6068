import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  buildTestApp,
  createCase,
  createCustomer,
  createFlag,
  createProcess,
  createProductUser,
  login,
  ManualClock,
  type TestApp,
} from '../../../test/helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ clock: new ManualClock(new Date('2026-11-18T12:00:00Z')) }); // a Wednesday
  await t.owner(async (tx) => {
    const acme = (await createCustomer(tx, { name: 'Acme' })).id;
    const other = (await createCustomer(tx, { name: 'Other' })).id;
    const p = (await createProcess(tx, { customerId: acme, requirements: ['dbs-basic'] })).id;
    await createCase(tx, { customerId: acme, processId: p });
    const c = await createCase(tx, {
      customerId: acme,
      processId: p,
      activityStates: ['ca-awaiting-agent'],
    });
    await createFlag(tx, { customerId: acme, caseId: c.id });
    await createCase(tx, {
      customerId: acme,
      processId: p,
      activityStates: ['ca-complete'],
      state: 'complete',
      completedAt: new Date('2026-11-16T09:00:00Z'),
    });
    await createCase(tx, {
      customerId: acme,
      processId: p,
      activityStates: ['ca-complete'],
      state: 'complete',
      completedAt: new Date('2026-11-01T09:00:00Z'),
    });
    await createCase(tx, {
      customerId: acme,
      processId: p,
      activityStates: ['ca-complete'],
      state: 'complete',
      completedAt: new Date('2026-11-17T09:00:00Z'),
      archivedAt: new Date(),
    });
    await createCase(tx, { customerId: other, activityStates: ['ca-awaiting-agent'] });
    await createProductUser(tx, {
      customerId: acme,
      username: 'admin@acme.test',
      roles: ['admin'],
    });
    await createProductUser(tx, {
      customerId: acme,
      username: 'viewer@acme.test',
      roles: ['viewer'],
    });
    await createProductUser(tx, { customerId: acme, username: 'none@acme.test', roles: [] });
  });
});
afterAll(() => t.close());

it('summarises the tenant caseload', async () => {
  const a = await login(t.app, 'admin@acme.test');
  const res = await t.app.inject({ method: 'GET', url: '/api/dashboard/', headers: a.headers });
  expect(res.statusCode).toBe(200);
  const d = res.json();
  expect(d.cases_by_state).toEqual({
    pending: 0,
    'awaiting-payment': 0,
    'awaiting-subject': 1,
    'in-progress': 1,
    'pending-case-decision': 0,
    complete: 2,
    cancelled: 0,
  });
  expect(d).toMatchObject({
    open_cases: 2,
    outstanding_activities: 1,
    flagged_cases: 1,
    active_flags: 1,
  });
  expect(d.completed_by_week).toHaveLength(12);
  // The chart counts the cases the 'Complete' count counts: the archived one is in neither.
  expect(d.completed_by_week[11]).toEqual({ week_start: '2026-11-16', count: 1 });
  const charted = d.completed_by_week.reduce((n: number, w: { count: number }) => n + w.count, 0);
  expect(charted).toBe(d.cases_by_state.complete);
  expect(d.completed_by_week[8]).toEqual({ week_start: '2026-10-26', count: 1 });
  expect(d.completed_by_week[0].week_start).toBe('2026-08-31');
  expect(d.recent_audit.length).toBeGreaterThan(0);
});

it('omits the audit trail without audit.view_auditaction; 403 without cases.view_case', async () => {
  const v = await login(t.app, 'viewer@acme.test');
  const res = await t.app.inject({ method: 'GET', url: '/api/dashboard/', headers: v.headers });
  expect(res.json().recent_audit).toEqual([]);
  const n = await login(t.app, 'none@acme.test');
  expect(
    (await t.app.inject({ method: 'GET', url: '/api/dashboard/', headers: n.headers })).statusCode,
  ).toBe(403);
});
