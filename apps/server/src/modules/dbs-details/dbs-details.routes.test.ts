import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProductUser,
  createRole,
  createSubjectUser,
  login,
  ManualClock,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { caseDbsDetails, caseRtwDetails } from './dbs-details.table.js';

/** DBS details and right-to-work details through the API: staff, ops and the subject. */
let t: TestApp;
let acme: number;
let openCase: number; // Ada's, awaiting her
let submittedCase: number; // Ada's, in progress
let otherSubjectCase: number; // Bob's, same customer
let otherTenantCase: number;
let admin: Client;
let viewer: Client;
let editor: Client; // may change cases, not activities
let ops: Client;
let ada: Client;

const TODAY = '2026-11-24';

beforeAll(async () => {
  t = await buildTestApp({ clock: new ManualClock(`${TODAY}T09:00:00Z`) });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    const other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    const editorRole = await createRole(tx, {
      customerId: acme,
      permissions: ['cases.view_case', 'cases.change_case'],
    });
    await createProductUser(tx, {
      customerId: acme,
      username: 'editor@acme.test',
      roles: [editorRole.id],
    });
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    const adaSubject = await createSubjectUser(tx, {
      customerId: acme,
      email: 'ada@example.test',
      firstName: 'Ada',
      lastName: 'Byron',
    });
    const bob = await createSubjectUser(tx, { customerId: acme, email: 'bob@example.test' });
    openCase = (await createCase(tx, { customerId: acme, subjectId: adaSubject.id })).id;
    submittedCase = (
      await createCase(tx, {
        customerId: acme,
        subjectId: adaSubject.id,
        activityStates: ['ca-awaiting-agent'],
      })
    ).id;
    otherSubjectCase = (await createCase(tx, { customerId: acme, subjectId: bob.id })).id;
    otherTenantCase = (await createCase(tx, { customerId: other })).id;
  });
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
  editor = await login(t.app, 'editor@acme.test');
  ops = await login(t.app, 'ops@k.test');
  ada = await login(t.app, 'ada@example.test');
});
afterAll(() => t.close());

const call = (c: Client, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: c.headers, ...(payload ? { payload } : {}) });

const auditsOf = (contentType: string, caseId: number) =>
  t.owner((tx) =>
    tx
      .select()
      .from(auditActions)
      .where(
        and(eq(auditActions.contentType, contentType), eq(auditActions.objectId, String(caseId))),
      )
      .orderBy(auditActions.id),
  );

describe('DBS details', () => {
  it('answers a blank record, pending, before anything is saved', async () => {
    const res = await call(admin, 'GET', `/api/case-dbs-details/${openCase}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      case: openCase,
      idv_option: '',
      video_call_date: null,
      in_person_expected_date: null,
      discrepancy_notes: '',
      state: 'pending',
      verified_by: null,
      verified_at: null,
      countersigned_by: null,
      countersigned_at: null,
    });
  });

  it('lets the subject choose its route on its own open case, audited; it sees no notes or names', async () => {
    const res = await call(ada, 'PATCH', `/api/s/case-dbs-details/${openCase}/`, {
      idv_option: 'video-call',
      video_call_date: '2026-12-01',
      discrepancy_notes: 'ignored from a subject',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      case: openCase,
      idv_option: 'video-call',
      video_call_date: '2026-12-01',
      in_person_expected_date: null,
      state: 'pending',
    });
    const staff = (await call(admin, 'GET', `/api/case-dbs-details/${openCase}/`)).json();
    expect(staff).toMatchObject({ idv_option: 'video-call', discrepancy_notes: '' });
    const audits = await auditsOf('cases.casedbsdetails', openCase);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      verb: 'created',
      customerId: acme,
      actorType: 'SubjectUser',
    });
  });

  it('refuses bad input with field messages, never a 500', async () => {
    const bad = await call(ada, 'PATCH', `/api/s/case-dbs-details/${openCase}/`, {
      idv_option: 'carrier-pigeon',
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['idv_option']);
    const past = await call(ada, 'PATCH', `/api/s/case-dbs-details/${openCase}/`, {
      video_call_date: '2026-11-01',
    });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toEqual({ video_call_date: ['The date cannot be in the past.'] });
    const notADate = await call(admin, 'PATCH', `/api/case-dbs-details/${openCase}/`, {
      in_person_expected_date: '2026-02-30',
    });
    expect(notADate.statusCode).toBe(400);
    expect(notADate.json()).toEqual({ in_person_expected_date: ['Invalid date'] });
    const long = await call(admin, 'PATCH', `/api/case-dbs-details/${openCase}/`, {
      discrepancy_notes: 'x'.repeat(401),
    });
    expect(long.json()).toEqual({ discrepancy_notes: ['Max length 400'] });
    for (const payload of ['[]', '"x"', '{"idv_option": 3}']) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/case-dbs-details/${openCase}/`,
        headers: { ...admin.headers, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode).toBe(400);
    }
  });

  it('keeps the subject to its own open, unsubmitted cases', async () => {
    expect(
      (await call(ada, 'GET', `/api/s/case-dbs-details/${otherSubjectCase}/`)).statusCode,
    ).toBe(404);
    expect((await call(ada, 'GET', `/api/s/case-dbs-details/${otherTenantCase}/`)).statusCode).toBe(
      404,
    );
    expect((await call(ada, 'GET', `/api/s/case-dbs-details/${submittedCase}/`)).statusCode).toBe(
      200,
    );
    const refused = await call(ada, 'PATCH', `/api/s/case-dbs-details/${submittedCase}/`, {
      idv_option: 'online',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      detail: 'This case has been submitted: its details can no longer be changed.',
    });
    const rows = await t.owner((tx) =>
      tx.select().from(caseDbsDetails).where(eq(caseDbsDetails.caseId, submittedCase)),
    );
    expect(rows).toHaveLength(0);
    // a subject may not verify (no such route for it) nor use staff routes
    expect(
      (await call(ada, 'POST', `/api/s/case-dbs-details/${openCase}/verify/`)).statusCode,
    ).toBe(404);
    expect((await call(ada, 'GET', `/api/case-dbs-details/${openCase}/`)).statusCode).toBe(403);
  });

  it('hides other tenants and needs the permissions', async () => {
    expect((await call(admin, 'GET', `/api/case-dbs-details/${otherTenantCase}/`)).statusCode).toBe(
      404,
    );
    expect((await call(viewer, 'GET', `/api/case-dbs-details/${openCase}/`)).statusCode).toBe(200);
    expect(
      (await call(viewer, 'PATCH', `/api/case-dbs-details/${openCase}/`, { idv_option: 'online' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call(editor, 'POST', `/api/case-dbs-details/${openCase}/verify/`)).statusCode,
    ).toBe(403);
    expect((await call(admin, 'GET', `/api/ops/case-dbs-details/${openCase}/`)).statusCode).toBe(
      403,
    );
  });

  it('countersigns only after verification; verification records the verifier and notes', async () => {
    const early = await call(admin, 'POST', `/api/case-dbs-details/${openCase}/countersign/`);
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({
      state: ['The identity must be verified before countersigning.'],
    });

    const verified = await call(admin, 'POST', `/api/case-dbs-details/${openCase}/verify/`, {
      discrepancy_notes: 'Middle name missing on the utility bill',
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({
      state: 'verified',
      verified_by: expect.any(String),
      verified_at: `${TODAY}T09:00:00.000Z`,
      discrepancy_notes: 'Middle name missing on the utility bill',
      countersigned_by: null,
    });
    const again = await call(admin, 'POST', `/api/case-dbs-details/${openCase}/verify/`);
    expect(again.json()).toEqual({ state: ['The identity has already been verified.'] });

    // once verified the route is fixed, for staff and the subject alike
    const locked = await call(ada, 'PATCH', `/api/s/case-dbs-details/${openCase}/`, {
      idv_option: 'online',
    });
    expect(locked.statusCode).toBe(400);
    expect(locked.json()).toEqual({
      idv_option: ['The identity has been verified: this can no longer be changed.'],
    });
    const subjectView = (await call(ada, 'GET', `/api/s/case-dbs-details/${openCase}/`)).json();
    expect(subjectView).toEqual(expect.objectContaining({ state: 'verified' }));
    expect(subjectView).not.toHaveProperty('verified_by');

    const signed = await call(ops, 'POST', `/api/ops/case-dbs-details/${openCase}/countersign/`);
    expect(signed.statusCode).toBe(200);
    expect(signed.json()).toMatchObject({
      state: 'countersigned',
      countersigned_by: expect.any(String),
    });
    const twice = await call(admin, 'POST', `/api/case-dbs-details/${openCase}/countersign/`);
    expect(twice.json()).toEqual({ state: ['The application has already been countersigned.'] });

    const audits = await auditsOf('cases.casedbsdetails', openCase);
    expect(audits.map((a) => (a.changes as { fields: string[] }).fields)).toEqual([
      ['idv_option', 'video_call_date'],
      ['state', 'discrepancy_notes'],
      ['state'],
    ]);
    expect(audits.every((a) => a.customerId === acme)).toBe(true);
  });

  it('refuses verification before a route is known; ops reach every customer', async () => {
    const res = await call(ops, 'POST', `/api/ops/case-dbs-details/${otherTenantCase}/verify/`, {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ idv_option: ['Required'] });
    const set = await call(ops, 'PATCH', `/api/ops/case-dbs-details/${otherTenantCase}/`, {
      idv_option: 'online',
    });
    expect(set.statusCode).toBe(200);
    const done = await call(ops, 'POST', `/api/ops/case-dbs-details/${otherTenantCase}/verify/`);
    expect(done.json()).toMatchObject({ state: 'verified' });
  });
});

describe('right-to-work details', () => {
  it('saves a share code, normalised, and drops it for the documents route', async () => {
    const blank = await call(ada, 'GET', `/api/s/case-rtw-details/${openCase}/`);
    expect(blank.json()).toMatchObject({ route: '', share_code: '', checked_by: null });
    const res = await call(ada, 'PATCH', `/api/s/case-rtw-details/${openCase}/`, {
      route: 'share-code',
      share_code: 'w12 345 67x',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ route: 'share-code', share_code: 'W1234567X' });
    const docs = await call(ada, 'PATCH', `/api/s/case-rtw-details/${openCase}/`, {
      route: 'documents',
    });
    expect(docs.json()).toMatchObject({ route: 'documents', share_code: '' });
    expect((await auditsOf('cases.casertwdetails', openCase)).map((a) => a.verb)).toEqual([
      'created',
      'updated',
    ]);
    const staff = await call(admin, 'GET', `/api/case-rtw-details/${openCase}/`);
    expect(staff.json()).toMatchObject({ route: 'documents' });
  });

  it('refuses a malformed share code, another person’s case and a submitted case', async () => {
    const bad = await call(ada, 'PATCH', `/api/s/case-rtw-details/${openCase}/`, {
      share_code: 'A12345678',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ share_code: ['Invalid format'] });
    expect(
      (
        await call(ada, 'PATCH', `/api/s/case-rtw-details/${otherSubjectCase}/`, {
          route: 'documents',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await call(ada, 'PATCH', `/api/s/case-rtw-details/${submittedCase}/`, {
          route: 'documents',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await call(viewer, 'PATCH', `/api/case-rtw-details/${openCase}/`, { route: 'documents' }))
        .statusCode,
    ).toBe(403);
    const rows = await t.owner((tx) =>
      tx.select().from(caseRtwDetails).where(eq(caseRtwDetails.caseId, submittedCase)),
    );
    expect(rows).toHaveLength(0);
  });
});
