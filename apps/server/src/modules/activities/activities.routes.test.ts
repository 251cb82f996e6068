import { SEND_BACK_MESSAGES } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { caseActivities } from './activities.table.js';

let t: TestApp;
let acme: number;
let proc: number;
let foreignActivity: number;
let admin: Client;
let viewer: Client;
let ops: Client;

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
    await createProductUser(tx, {
      customerId: null,
      username: 'ops@k.test',
      roles: ['ops'],
      firstName: 'Olive',
      lastName: 'Ops',
    });
  });
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
  ops = await login(t.app, 'ops@k.test');
});
afterAll(() => t.close());

const call = (c: Client, method: 'GET' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: c.headers, ...(payload ? { payload } : {}) });

describe('/api/case-activities/', () => {
  it('counts every match of the filters, not just the page (the total beside the page)', async () => {
    const c = await t.owner((tx) => createCase(tx, { customerId: acme, processId: proc }));
    const url = (q: string) => `/api/case-activities/?case=${c.id}&page_size=1${q}`;
    const first = (await call(viewer, 'GET', url('&ordering=created_at'))).json();
    expect(first.count).toBe(2);
    expect(first.results).toHaveLength(1);
    expect(first.next).toContain('page=2');
    const second = (await call(viewer, 'GET', url('&ordering=created_at&page=2'))).json();
    expect(second.count).toBe(2);
    expect(second.next).toBeNull();
    expect(second.results[0].id).not.toBe(first.results[0].id);
    // filters through the joins (activity type, subject search) count the same rows they list
    expect((await call(viewer, 'GET', url('&activity_type=dbs-basic'))).json().count).toBe(1);
    expect((await call(viewer, 'GET', url('&search=zzzz-nobody'))).json().count).toBe(0);
    // unknown or inherited ordering names are ignored, as before
    const odd = await call(viewer, 'GET', url('&ordering=__proto__,-nope'));
    expect(odd.statusCode).toBe(200);
    expect(odd.json().count).toBe(2);
  });

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

  it('hides notes from customer staff, who may neither write notes nor processing_data', async () => {
    const c = await t.owner((tx) => createCase(tx, { customerId: acme, processId: proc }));
    const [a] = await activitiesOf(c.id);
    const listed = await call(admin, 'GET', `/api/case-activities/${a?.id}/`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).not.toHaveProperty('notes');
    const detail = await call(admin, 'GET', `/api/cases/${c.id}/`);
    expect(detail.json().case_activities[0]).not.toHaveProperty('notes');
    for (const payload of [{ notes: 'no' }, { processing_data: { x: 1 } }]) {
      const res = await call(admin, 'PATCH', `/api/case-activities/${a?.id}/`, payload);
      expect(res.statusCode).toBe(403);
    }
    const post = await t.app.inject({
      method: 'POST',
      url: `/api/ops/case-activities/${a?.id}/notes/`,
      headers: admin.headers,
      payload: { notes: 'no' },
    });
    expect(post.statusCode).toBe(403);
    expect((await call(admin, 'GET', `/api/ops/case-activities/${a?.id}/notes/`)).statusCode).toBe(
      403,
    );
    const [row] = await activitiesOf(c.id);
    expect([row?.notes, row?.processingData]).toEqual(['', {}]);
  });

  it('lets operations staff save notes (400 characters) with a history, and processing_data', async () => {
    const c = await t.owner((tx) => createCase(tx, { customerId: acme, processId: proc }));
    const [a] = await activitiesOf(c.id);
    const notesUrl = `/api/ops/case-activities/${a?.id}/notes/`;
    const post = (payload: object) =>
      t.app.inject({ method: 'POST', url: notesUrl, headers: ops.headers, payload });
    const first = await post({ notes: '  Called the referee.  ' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      actor_first_name: 'Olive',
      actor_last_name: 'Ops',
      description: 'Called the referee.',
      timestamp: expect.any(String),
    });
    expect((await post({ notes: 'Referee answered.' })).statusCode).toBe(201);
    const tooLong = await post({ notes: 'x'.repeat(401) });
    expect([tooLong.statusCode, tooLong.json()]).toEqual([400, { notes: ['Max length 400'] }]);
    expect((await post({ notes: 'x'.repeat(400) })).statusCode).toBe(201);
    expect((await post({})).statusCode).toBe(400);

    const history = await call(ops, 'GET', notesUrl);
    expect(history.statusCode).toBe(200);
    expect(history.json().count).toBe(3);
    expect(history.json().results.map((e: { description: string }) => e.description)).toEqual([
      'x'.repeat(400),
      'Referee answered.',
      'Called the referee.',
    ]);
    expect(
      (await call(ops, 'GET', `/api/ops/case-activities/${foreignActivity + 1e6}/notes/`))
        .statusCode,
    ).toBe(404);

    // the activity carries its latest notes for operations staff only
    const opsView = await call(ops, 'GET', `/api/ops/cases/${c.id}/`);
    expect(opsView.json().case_activities[0].notes).toBe('x'.repeat(400));

    // ops PATCH keeps processing_data (it used to answer 200 and drop it)
    const patched = await call(ops, 'PATCH', `/api/ops/case-activities/${a?.id}/`, {
      processing_data: { dbs_case: 'E123' },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ processing_data: { dbs_case: 'E123' } });
    const [row] = await activitiesOf(c.id);
    expect([row?.notes, row?.processingData]).toEqual(['x'.repeat(400), { dbs_case: 'E123' }]);

    const audits = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(and(eq(auditActions.objectId, String(a?.id)), eq(auditActions.verb, 'updated'))),
    );
    expect(audits.map((x) => [x.customerId, Object.keys(x.changes as object)])).toEqual([
      [acme, ['notes']],
      [acme, ['notes']],
      [acme, ['notes']],
      [acme, ['processing_data']],
    ]);
  });

  it('moves an activity as the domain allows and the case follows its activities', async () => {
    // kinds worked by hand (a check the engine runs moves with its provider: hand-edits.test.ts)
    const c = await t.owner(async (tx) => {
      const p = await createProcess(tx, {
        customerId: acme,
        requirements: ['basic-details', 'adult-first'],
      });
      return createCase(tx, { customerId: acme, processId: p.id });
    });
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

describe('sending an activity back to its subject (PATCH state ca-awaiting-subject)', () => {
  it('operations send back what waits for staff with no provider involved, never a finished one; a viewer may not', async () => {
    const c = await t.owner(async (tx) => {
      const p = await createProcess(tx, {
        customerId: acme,
        requirements: ['document-collection', 'basic-details'],
      });
      return createCase(tx, {
        customerId: acme,
        processId: p.id,
        activityStates: ['ca-awaiting-ops', 'ca-complete'],
      });
    });
    const [docs, details] = await activitiesOf(c.id);
    if (!docs || !details) throw new Error('activities missing');
    const back = { state: 'ca-awaiting-subject' };
    expect((await call(viewer, 'PATCH', `/api/case-activities/${docs.id}/`, back)).statusCode).toBe(
      403,
    );
    const ended = await call(ops, 'PATCH', `/api/ops/case-activities/${details.id}/`, back);
    expect(ended.statusCode).toBe(400);
    expect(ended.json()).toEqual({ state: [SEND_BACK_MESSAGES.ended] });
    const sent = await call(ops, 'PATCH', `/api/ops/case-activities/${docs.id}/`, back);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({
      state: 'ca-awaiting-subject',
      case: { state: 'awaiting-subject' },
    });
    // already with the subject: nothing to refuse, nothing moves
    const again = await call(admin, 'PATCH', `/api/case-activities/${docs.id}/`, back);
    expect(again.statusCode).toBe(200);
    const moves = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(eq(auditActions.verb, 'state_changed'), eq(auditActions.objectId, String(docs.id))),
        ),
    );
    expect(moves.map((m) => m.changes)).toEqual([
      { state: ['ca-awaiting-ops', 'ca-awaiting-subject'] },
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
