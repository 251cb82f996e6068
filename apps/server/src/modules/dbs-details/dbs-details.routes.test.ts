import { DBS_DETAILS_MESSAGES, IDENTITY_CHECK_MESSAGES } from '@kestrel/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  createRole,
  createSubjectUser,
  login,
  ManualClock,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { createCaseDocument } from '../case-documents/case-documents.factories.js';
import { caseDocuments } from '../case-documents/case-documents.table.js';
import { createCaseOnlineIdv } from '../online-idv/online-idv.factories.js';
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
      identity_route: null,
      countersigned_by: null,
      countersigned_at: null,
      identity_check: {
        level: 'basic',
        basis: null,
        met: false,
        route: null,
        problem: IDENTITY_CHECK_MESSAGES.noOption,
        online_idv_passed: false,
        documents: [],
      },
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

    // a video call shows documents: none collected yet, so nothing to verify against
    const unproven = await call(admin, 'POST', `/api/case-dbs-details/${openCase}/verify/`, {
      discrepancy_notes: 'Middle name missing on the utility bill',
    });
    expect(unproven.statusCode).toBe(400);
    expect(unproven.json()).toEqual({
      identity_check: [
        "The documents collected do not meet the basic check's identity route. Still needed: a Group 1 document; 1 more document from any group; a document showing the current address.",
      ],
    });
    const docs = await addDocuments(openCase, ['passport', 'utility-bill']);
    const ready = (await call(admin, 'GET', `/api/case-dbs-details/${openCase}/`)).json();
    expect(ready.identity_check).toEqual({
      level: 'basic',
      basis: 'documents',
      met: true,
      route: 1,
      problem: '',
      online_idv_passed: false,
      documents: [
        { id: docs[0], name: 'Passport', group: '1' },
        { id: docs[1], name: 'Utility bill (not a mobile phone bill)', group: '2b' },
      ],
    });

    const verified = await call(admin, 'POST', `/api/case-dbs-details/${openCase}/verify/`, {
      discrepancy_notes: 'Middle name missing on the utility bill',
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({
      state: 'verified',
      verified_by: expect.any(String),
      verified_at: `${TODAY}T09:00:00.000Z`,
      identity_route: 1,
      discrepancy_notes: 'Middle name missing on the utility bill',
      countersigned_by: null,
    });
    // the documents counted carry the route they met
    expect(await routesOf(docs)).toEqual([1, 1]);
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
      ['state', 'identity_route', 'documents', 'discrepancy_notes'],
      ['state'],
    ]);
    expect(audits[1]?.changes).toMatchObject({ personal: { documents: [null, docs] } });
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
    // online: only once the online identity check has passed
    const early = await call(ops, 'POST', `/api/ops/case-dbs-details/${otherTenantCase}/verify/`);
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({ identity_check: [IDENTITY_CHECK_MESSAGES.onlineNotPassed] });
    const other = await customerOf(otherTenantCase);
    await t.owner((tx) => createCaseOnlineIdv(tx, { customerId: other, caseId: otherTenantCase }));
    const done = await call(ops, 'POST', `/api/ops/case-dbs-details/${otherTenantCase}/verify/`);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ state: 'verified', identity_route: null });
    expect(done.json().identity_check).toMatchObject({ basis: 'online', met: true });
  });

  it('verifies a standard or enhanced application against the first route its documents meet', async () => {
    const caseId = await enhancedCase();
    const url = `/api/case-dbs-details/${caseId}/`;
    await call(admin, 'PATCH', url, {
      idv_option: 'in-person',
      in_person_expected_date: TODAY,
    });
    // Route 2 documents (no Group 1), a rejected passport that does not count
    const passport = await addDocuments(caseId, ['passport']);
    await t.owner((tx) =>
      tx.update(caseDocuments).set({ rejected: true }).where(inArray(caseDocuments.id, passport)),
    );
    const docs = await addDocuments(caseId, ['firearms-licence', 'bank-statement', 'utility-bill']);
    const first = (await call(admin, 'GET', url)).json();
    expect(first.identity_check).toMatchObject({
      level: 'standard-enhanced',
      basis: 'documents',
      met: false,
      route: null,
      problem: IDENTITY_CHECK_MESSAGES.route2Validation,
      online_idv_passed: false,
    });
    expect(first.identity_check.documents.map((d: { id: number }) => d.id)).toEqual(docs);
    const refused = await call(admin, 'POST', `${url}verify/`, {});
    expect(refused.json()).toEqual({ identity_check: [IDENTITY_CHECK_MESSAGES.route2Validation] });
    expect((await call(admin, 'GET', url)).json()).toMatchObject({ state: 'pending' });
    expect(await routesOf(docs)).toEqual([null, null, null]);
    // Route 2's external validation: the online identity check passed
    await t.owner((tx) => createCaseOnlineIdv(tx, { customerId: acme, caseId }));
    const verified = await call(admin, 'POST', `${url}verify/`, {});
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ state: 'verified', identity_route: 2 });
    expect(await routesOf(docs)).toEqual([2, 2, 2]);
    expect(await routesOf(passport)).toEqual([null]);
    // the subject's view carries none of it
    const mine = await call(admin, 'GET', `/api/case-dbs-details/${openCase}/`);
    expect(mine.json()).toHaveProperty('identity_check');
    expect(
      (await call(ada, 'GET', `/api/s/case-dbs-details/${openCase}/`)).json(),
    ).not.toHaveProperty('identity_check');
  });

  it('countersigning checks the evidence again; a closed case is neither verified nor countersigned', async () => {
    const caseId = await enhancedCase();
    const url = `/api/case-dbs-details/${caseId}/`;
    await call(admin, 'PATCH', url, { idv_option: 'in-person', in_person_expected_date: TODAY });
    const [passport] = await addDocuments(caseId, ['passport', 'bank-statement', 'utility-bill']);
    expect((await call(admin, 'POST', `${url}verify/`, {})).statusCode).toBe(200);
    // the passport turns out not to be acceptable: rejected after verification
    await t.owner((tx) =>
      tx
        .update(caseDocuments)
        .set({ rejected: true })
        .where(eq(caseDocuments.id, passport ?? 0)),
    );
    const refused = await call(admin, 'POST', `${url}countersign/`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      identity_check: [IDENTITY_CHECK_MESSAGES.routesNotMet(['a Group 1 document'])],
    });
    expect((await call(admin, 'GET', url)).json()).toMatchObject({ state: 'verified' });

    for (const state of ['cancelled', 'complete'] as const) {
      const closed = await enhancedCase(state);
      const closedUrl = `/api/case-dbs-details/${closed}/`;
      const res = await call(ops, 'POST', `/api/ops/case-dbs-details/${closed}/verify/`, {});
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ state: [DBS_DETAILS_MESSAGES.caseClosed] });
      expect((await call(admin, 'POST', `${closedUrl}countersign/`)).json()).toEqual({
        state: [DBS_DETAILS_MESSAGES.caseClosed],
      });
    }
  });

  it('verifying and countersigning are separate rights: a verifier cannot countersign', async () => {
    const { verifier, countersignatory } = await t.owner(async (tx) => {
      const v = await createRole(tx, {
        customerId: acme,
        permissions: ['cases.view_case', 'cases.change_case', 'cases.change_caseactivity'],
      });
      const c = await createRole(tx, {
        customerId: acme,
        permissions: ['cases.view_case', 'cases.countersign_casedbsdetails'],
      });
      await createProductUser(tx, { customerId: acme, username: 'v@acme.test', roles: [v.id] });
      await createProductUser(tx, { customerId: acme, username: 'c@acme.test', roles: [c.id] });
      return { verifier: 'v@acme.test', countersignatory: 'c@acme.test' };
    });
    const v = await login(t.app, verifier);
    const c = await login(t.app, countersignatory);
    const caseId = await enhancedCase();
    const url = `/api/case-dbs-details/${caseId}/`;
    await call(v, 'PATCH', url, { idv_option: 'video-call', video_call_date: TODAY });
    await addDocuments(caseId, ['passport', 'bank-statement', 'utility-bill']);
    expect((await call(c, 'POST', `${url}verify/`, {})).statusCode).toBe(403);
    const verified = await call(v, 'POST', `${url}verify/`, {});
    expect(verified.json()).toMatchObject({ state: 'verified', identity_route: 1 });
    const denied = await call(v, 'POST', `${url}countersign/`);
    expect(denied.statusCode).toBe(403);
    expect((await call(v, 'GET', url)).json()).toMatchObject({ state: 'verified' });
    const signed = await call(c, 'POST', `${url}countersign/`);
    expect(signed.statusCode).toBe(200);
    expect(signed.json()).toMatchObject({ state: 'countersigned' });
  });
});

/** A case with an enhanced check (verified against the full routes). */
async function enhancedCase(state?: 'cancelled' | 'complete'): Promise<number> {
  return t.owner(async (tx) => {
    const p = await createProcess(tx, {
      customerId: acme,
      requirements: ['basic-details', 'dbs-enhanced'],
    });
    return (
      await createCase(tx, { customerId: acme, processId: p.id, ...(state ? { state } : {}) })
    ).id;
  });
}

/** Identity documents of the given types, collected on the case; their ids. */
async function addDocuments(caseId: number, types: string[]): Promise<number[]> {
  const customerId = await customerOf(caseId);
  const ids: number[] = [];
  for (const documentType of types) {
    const doc = await t.owner((tx) =>
      createCaseDocument(tx, t.app.deps.storage, { customerId, caseId, documentType }),
    );
    ids.push(doc.id);
  }
  return ids;
}

async function routesOf(ids: number[]): Promise<(number | null)[]> {
  const rows = await t.owner((tx) =>
    tx
      .select({ id: caseDocuments.id, route: caseDocuments.routeIndex })
      .from(caseDocuments)
      .where(inArray(caseDocuments.id, ids)),
  );
  return ids.map((id) => rows.find((r) => r.id === id)?.route ?? null);
}

async function customerOf(caseId: number): Promise<number> {
  const rows = await t.owner((tx) =>
    tx.execute<{ customer_id: number }>(sql`select customer_id from cases where id = ${caseId}`),
  );
  return Number(rows[0]?.customer_id);
}

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
