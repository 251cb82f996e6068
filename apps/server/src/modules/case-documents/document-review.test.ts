import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOCUMENT_MESSAGES, MESSAGES, REJECTION_REASON_MAX } from '@kestrel/domain';
import { and, asc, eq } from 'drizzle-orm';
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
  type TestApp,
} from '../../../test/helpers.js';
import { defaultConfig } from '../../config.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { cases } from '../cases/cases.table.js';
import { createCaseDocument } from './case-documents.factories.js';
import { multipart, pngFile } from './test-files.js';

/*
 * Issue 27, parts 3 and 4: the data kinds end (basic details and address history complete on
 * the subject's submission, document collection waits for operations' review), and a document
 * rejected with a reason sends the collection back to the subject, who replaces it and submits
 * again, until the review accepts the documents and the case waits for its decision.
 */

const storageDir = mkdtempSync(join(tmpdir(), 'kestrel-review-test-'));
const spoolDir = mkdtempSync(join(tmpdir(), 'kestrel-review-spool-'));
const DATA_KINDS = ['basic-details', 'address-history', 'document-collection'];

let t: TestApp;
let acme: number;
let staff: Client;
let viewer: Client;
let ops: Client;
let otherStaff: Client;
let people = 0;

beforeAll(async () => {
  t = await buildTestApp({
    config: { storage: { ...defaultConfig.storage, localDir: storageDir, spoolDir } },
  });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    const other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    await createAdminAndViewer(tx, other, 'other.test');
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
  });
  staff = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
  otherStaff = await login(t.app, 'admin@other.test');
  ops = await login(t.app, 'ops@k.test');
});
afterAll(() => t.close());

const call = (c: Client, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: c.headers, ...(payload ? { payload } : {}) });

/** A subject with a login and an open case of `codes`, and its activities by code. */
async function subjectWithCase(codes: string[] = DATA_KINDS, state?: 'complete') {
  const email = `review-${++people}@example.test`;
  const made = await t.owner(async (tx) => {
    const s = await createSubjectUser(tx, { customerId: acme, email });
    const p = await createProcess(tx, { customerId: acme, requirements: codes });
    const c = await createCase(tx, {
      customerId: acme,
      processId: p.id,
      subjectId: s.id,
      ...(state ? { state, activityStates: ['ca-complete'] } : {}),
    });
    return { caseId: c.id };
  });
  return { ...made, subject: await login(t.app, email) };
}

/** The case's activities' states by code, and the case's state. */
async function states(caseId: number) {
  return t.owner(async (tx) => {
    const rows = await tx
      .select({ id: caseActivities.id, code: activityTypes.code, state: caseActivities.state })
      .from(caseActivities)
      .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
      .where(eq(caseActivities.caseId, caseId))
      .orderBy(asc(caseActivities.position));
    const [c] = await tx.select({ state: cases.state }).from(cases).where(eq(cases.id, caseId));
    return {
      activities: Object.fromEntries(rows.map((r) => [r.code, r.state])),
      ids: Object.fromEntries(rows.map((r) => [r.code, r.id])),
      case: c?.state,
    };
  });
}

async function uploadDocument(subject: Client, caseId: number, activity: number, type: string) {
  const { payload, contentType } = multipart([
    { name: 'case', value: String(caseId) },
    { name: 'case_activity', value: String(activity) },
    { name: 'document_type', value: type },
    { name: 'collector', value: 'identity' },
    { name: 'file', value: await pngFile(), filename: `${type}.png`, contentType: 'image/png' },
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/s/case-documents/',
    headers: { ...subject.headers, 'content-type': contentType },
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return Number(res.json().id);
}

/** The subject's portal: basic details, one current address, a passport, then submit. */
async function fillAndSubmit(subject: Client, caseId: number): Promise<number> {
  const basic = await call(subject, 'PUT', `/api/s/case-basic-details/${caseId}/`, {
    gender: 'female',
    title: 'Ms',
    forename: 'Ada',
    surname: 'Lovelace',
    dob: '1985-12-10',
    phone_number: '07911 123456',
    nin: 'ab 12 34 56 c',
    nationality: 'GBR',
  });
  expect(basic.statusCode, basic.body).toBe(200);
  const address = await call(subject, 'POST', '/api/s/case-addresses/', {
    case: caseId,
    country: 'GBR',
    line_one: '1 High Street',
    town: 'Leeds',
    postcode: 'LS1 4AP',
    from_date: '2015-01-01',
    current: true,
  });
  expect(address.statusCode, address.body).toBe(201);
  const { ids } = await states(caseId);
  const doc = await uploadDocument(subject, caseId, Number(ids['document-collection']), 'passport');
  for (const section of ['welcome', ...DATA_KINDS]) {
    const res = await call(subject, 'PATCH', `/api/s/case-portal/${caseId}/`, {
      portal_last_completed_section: section,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  await submit(subject, caseId);
  return doc;
}

async function submit(subject: Client, caseId: number) {
  const res = await call(subject, 'POST', `/api/s/case-portal/${caseId}/submit/`);
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

const reject = (c: Client, id: number, reason: unknown, prefix = '/api/') =>
  call(c, 'POST', `${prefix}case-documents/${id}/reject/`, { reason });

async function auditsOf(verb: 'rejected', objectId: number) {
  return t.owner((tx) =>
    tx
      .select()
      .from(auditActions)
      .where(and(eq(auditActions.verb, verb), eq(auditActions.objectId, String(objectId)))),
  );
}

describe('every data kind reaches an end (issue 27, part 3)', () => {
  it('runs from the portal to pending case decision, through a rejection and its replacement', async () => {
    const { caseId, subject } = await subjectWithCase();
    const doc = await fillAndSubmit(subject, caseId);
    // basic details and address history need no checking; the documents wait for a review
    let now = await states(caseId);
    expect(now.activities).toEqual({
      'basic-details': 'ca-complete',
      'address-history': 'ca-complete',
      'document-collection': 'ca-awaiting-ops',
    });
    expect(now.case).toBe('in-progress');
    const collection = Number(now.ids['document-collection']);
    // listed for operations, whose detail page carries the review
    const listed = await call(ops, 'GET', '/api/ops/outstanding-activities/?page_size=100');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().results.map((a: { id: number }) => a.id)).toContain(collection);

    // staff reject the passport: the collection goes back to the subject, the portal reopens
    const rejected = await reject(staff, doc, '  The photo is blurred.  ');
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({
      id: doc,
      rejected: true,
      rejection_reason: 'The photo is blurred.',
      rejected_by: expect.stringMatching(/\S/),
    });
    expect(rejected.json().rejected_at).toEqual(expect.any(String));
    const audits = await auditsOf('rejected', doc);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      customerId: acme,
      contentType: 'cases.casedocument',
      changes: { rejected: [false, true], reason: 'The photo is blurred.' },
    });
    now = await states(caseId);
    expect(now.activities['document-collection']).toBe('ca-awaiting-subject');
    expect(now.case).toBe('awaiting-subject');
    const portal = (await call(subject, 'GET', `/api/s/case-portal/${caseId}/`)).json();
    expect(portal.portal).toMatchObject({ submitted: false, progress: { next: 'review' } });

    // the panels leave it out (they show the non-rejected); the subject reads why, not who
    const mine = (await call(subject, 'GET', `/api/s/case-documents/?case=${caseId}`)).json();
    expect(mine.results).toEqual([
      expect.objectContaining({
        id: doc,
        rejected: true,
        rejection_reason: 'The photo is blurred.',
        rejected_by: '',
      }),
    ]);
    // the person replaces it: up for review again
    const { payload, contentType } = multipart([
      { name: 'file', value: await pngFile(), filename: 'again.png', contentType: 'image/png' },
    ]);
    const replaced = await t.app.inject({
      method: 'PUT',
      url: `/api/s/case-documents/${doc}/`,
      headers: { ...subject.headers, 'content-type': contentType },
      payload,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({
      rejected: false,
      rejection_reason: '',
      rejected_at: null,
    });
    await submit(subject, caseId);
    now = await states(caseId);
    expect(now.activities['document-collection']).toBe('ca-awaiting-ops');
    expect(now.case).toBe('in-progress');

    // operations accept the documents: every activity has ended, the case moves on by itself
    const accepted = await call(ops, 'PATCH', `/api/ops/case-activities/${collection}/`, {
      state: 'ca-complete',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    now = await states(caseId);
    expect(now.activities['document-collection']).toBe('ca-complete');
    expect(now.case).toBe('pending-case-decision');
  });

  it('completes at once a case of basic details and address history only', async () => {
    const { caseId, subject } = await subjectWithCase(['basic-details', 'address-history']);
    const basic = await call(subject, 'PUT', `/api/s/case-basic-details/${caseId}/`, {
      gender: 'male',
      title: 'Mr',
      forename: 'Alan',
      surname: 'Turing',
      dob: '1970-06-23',
      phone_number: '07911 123456',
      nin: 'ab 12 34 56 c',
      nationality: 'GBR',
    });
    expect(basic.statusCode, basic.body).toBe(200);
    for (const section of ['welcome', 'basic-details', 'address-history']) {
      const res = await call(subject, 'PATCH', `/api/s/case-portal/${caseId}/`, {
        portal_last_completed_section: section,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const res = await submit(subject, caseId);
    expect(res.json().portal.state).toBe('pending-case-decision');
    const now = await states(caseId);
    expect(now.activities).toEqual({
      'basic-details': 'ca-complete',
      'address-history': 'ca-complete',
    });
  });
});

describe('POST /api/{,ops/}case-documents/{id}/reject/', () => {
  /** A case whose passport waits for the review (its collection moved there by staff). */
  async function awaitingReview() {
    const { caseId, subject } = await subjectWithCase();
    const { ids } = await states(caseId);
    const collection = Number(ids['document-collection']);
    const doc = await uploadDocument(subject, caseId, collection, 'passport');
    const moved = await call(staff, 'PATCH', `/api/case-activities/${collection}/`, {
      state: 'ca-awaiting-ops',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    return { caseId, doc, subject };
  }

  it('lets operations reject through their own path', async () => {
    const { caseId, doc } = await awaitingReview();
    const res = await reject(ops, doc, 'Expired.', '/api/ops/');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ rejected: true, rejection_reason: 'Expired.' });
    expect((await states(caseId)).activities['document-collection']).toBe('ca-awaiting-subject');
  });

  it('needs permission to change checks (403), and is 404 to another customer and the subject', async () => {
    const { caseId, doc, subject } = await awaitingReview();
    expect((await reject(viewer, doc, 'No.')).statusCode).toBe(403);
    expect((await reject(otherStaff, doc, 'No.')).statusCode).toBe(404);
    expect((await reject(subject, doc, 'No.', '/api/s/')).statusCode).toBe(404);
    expect((await reject(staff, 99_999_999, 'No.')).statusCode).toBe(404);
    expect(await auditsOf('rejected', doc)).toHaveLength(0);
    expect((await states(caseId)).activities['document-collection']).toBe('ca-awaiting-ops');
  });

  it('needs a reason of at most 400 characters', async () => {
    const { doc } = await awaitingReview();
    for (const reason of [undefined, '', '   ']) {
      const res = await reject(staff, doc, reason);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ reason: [MESSAGES.required] });
    }
    const long = await reject(staff, doc, 'x'.repeat(REJECTION_REASON_MAX + 1));
    expect(long.statusCode).toBe(400);
    expect(Object.keys(long.json())).toEqual(['reason']);
  });

  it('refuses a document already rejected, and one no open collection can ask again for', async () => {
    const { doc } = await awaitingReview();
    expect((await reject(staff, doc, 'Blurred.')).statusCode).toBe(200);
    const again = await reject(staff, doc, 'Blurred.');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ non_field_errors: [DOCUMENT_MESSAGES.alreadyRejected] });
    // a case without a document collection (a staff upload for a criminal-record check)
    const { caseId } = await subjectWithCase(['dbs-basic']);
    const loose = await t.owner((tx) =>
      createCaseDocument(tx, t.app.deps.storage, { customerId: acme, caseId }),
    );
    const none = await reject(staff, loose.id, 'Blurred.');
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ non_field_errors: [DOCUMENT_MESSAGES.noOpenCollection] });
  });

  it('is 403 on a finished case', async () => {
    const { caseId } = await subjectWithCase(DATA_KINDS, 'complete');
    const doc = await t.owner((tx) =>
      createCaseDocument(tx, t.app.deps.storage, { customerId: acme, caseId }),
    );
    const res = await reject(staff, doc.id, 'Blurred.');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: DOCUMENT_MESSAGES.closed });
  });
});
