// @postgres: the subject role and its settings on pooled connections, on every route a subject uses

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createCase,
  createCustomer,
  createProcess,
  createSubjectUser,
  login,
  type TestApp,
} from '../../test/helpers.js';
import { defaultConfig } from '../config.js';
import { type FormPart, multipart, pngFile } from '../modules/case-documents/test-files.js';
import { NotFoundError, PermissionDeniedError } from './errors.js';
import { allowSubjectCase, SECTION_WRITES, SUBMITTED_DETAIL } from './subject-access.js';

/**
 * The subject case access policy (platform/subject-access.ts) through every route that uses it:
 * the portal, case data, documents, consents and the online identity check. A subject touches
 * only its own open case, writes only until it is submitted, and only what a section of the
 * case allows.
 */

describe('allowSubjectCase (the rule)', () => {
  const open = {
    id: 1,
    customerId: 1,
    subjectId: 1,
    state: 'awaiting-subject',
    portalLastCompletedSection: null,
    sections: ['welcome' as const, 'basic-details' as const, 'review' as const, 'done' as const],
    archived: false,
  };

  it('allows its own open case, and a write a section of the case allows', () => {
    expect(allowSubjectCase(open, 'read').id).toBe(1);
    expect(allowSubjectCase(open, 'write', { table: 'case_basic_details' }).id).toBe(1);
    expect(allowSubjectCase(open, 'write', { section: 'basic-details' }).id).toBe(1);
  });

  it('refuses (404) no case, an archived or closed one, a section the case does not have', () => {
    expect(() => allowSubjectCase(null, 'read')).toThrow(NotFoundError);
    expect(() => allowSubjectCase({ ...open, archived: true }, 'any')).toThrow(NotFoundError);
    expect(() => allowSubjectCase({ ...open, state: 'complete' }, 'read')).toThrow(NotFoundError);
    expect(() => allowSubjectCase({ ...open, state: 'cancelled' }, 'write')).toThrow(NotFoundError);
    // a finished case's own page and consents ('any')
    expect(allowSubjectCase({ ...open, state: 'complete' }, 'any').id).toBe(1);
    for (const table of ['case_addresses', 'case_dbs_details', 'case_rtw_details', 'nothing']) {
      expect(() => allowSubjectCase(open, 'write', { table })).toThrow(NotFoundError);
    }
    expect(() => allowSubjectCase(open, 'write', { section: 'online-idv' })).toThrow(NotFoundError);
  });

  it('refuses (403) a write once the case is submitted', () => {
    const submitted = { ...open, portalLastCompletedSection: 'review' };
    expect(() => allowSubjectCase(submitted, 'write', { table: 'case_basic_details' })).toThrow(
      PermissionDeniedError,
    );
    expect(allowSubjectCase(submitted, 'read').id).toBe(1);
  });

  it('names a section for every table a subject writes', () => {
    expect(Object.keys(SECTION_WRITES).sort()).toEqual(
      [
        'case_addresses',
        'case_basic_details',
        'case_birth_details',
        'case_dbs_details',
        'case_dbs_update_details',
        'case_documents',
        'case_driving_licences',
        'case_online_idv',
        'case_other_names',
        'case_passports',
        'case_rtw_details',
        'trust_to_ride_bookings',
      ].sort(),
    );
  });
});

const storageDir = mkdtempSync(join(tmpdir(), 'kestrel-subject-access-'));
const spoolDir = mkdtempSync(join(tmpdir(), 'kestrel-subject-access-spool-'));

let t: TestApp;
let adaCase: number; // Ada's, open, with every section the routes below write
let adaBasicOnly: number; // Ada's, open, with basic details only
let adaClosed: number; // Ada's, complete
let bobCase: number; // Bob's, open, every section
let ada: Client;

const EVERY = ['basic-details', 'address-history', 'document-collection', 'online-idv'];

beforeAll(async () => {
  t = await buildTestApp({
    config: { storage: { ...defaultConfig.storage, localDir: storageDir, spoolDir } },
  });
  await t.owner(async (tx) => {
    const acme = (await createCustomer(tx, { name: 'Acme' })).id;
    const adaRecord = await createSubjectUser(tx, { customerId: acme, email: 'ada@example.test' });
    const bobRecord = await createSubjectUser(tx, { customerId: acme, email: 'bob@example.test' });
    const every = await createProcess(tx, { customerId: acme, requirements: EVERY });
    const basicOnly = await createProcess(tx, {
      customerId: acme,
      requirements: ['basic-details'],
    });
    const open = { customerId: acme, activityStates: ['ca-awaiting-subject' as const] };
    adaCase = (await createCase(tx, { ...open, processId: every.id, subjectId: adaRecord.id })).id;
    adaBasicOnly = (
      await createCase(tx, { ...open, processId: basicOnly.id, subjectId: adaRecord.id })
    ).id;
    adaClosed = (
      await createCase(tx, {
        customerId: acme,
        processId: every.id,
        subjectId: adaRecord.id,
        activityStates: ['ca-complete'],
        state: 'complete',
      })
    ).id;
    bobCase = (await createCase(tx, { ...open, processId: every.id, subjectId: bobRecord.id })).id;
  });
  ada = await login(t.app, 'ada@example.test');
});
afterAll(() => t.close());

const call = (c: Client, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: c.headers, ...(payload ? { payload } : {}) });

function upload(c: Client, parts: FormPart[]) {
  const { payload, contentType } = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: '/api/s/case-documents/',
    headers: { ...c.headers, 'content-type': contentType },
    payload,
  });
}

const basic = {
  gender: 'female',
  title: 'Ms',
  forename: 'Ada',
  surname: 'Byron',
  dob: '1985-12-10',
  phone_number: '07911 123456',
  nationality: 'GBR',
};

const address = {
  country: 'GBR',
  line_one: '9 Orchard Close',
  town: 'Derby',
  postcode: 'DE1 1AA',
  from_date: '2020-01-01',
  current: true,
};

/** Every write route of the policy, on case `caseId`: its status code. */
async function writes(caseId: number): Promise<Record<string, number>> {
  const png = await pngFile(120, 80);
  const out: Record<string, number> = {};
  out.progress = (
    await call(ada, 'PATCH', `/api/s/case-portal/${caseId}/`, {
      portal_last_completed_section: 'welcome',
    })
  ).statusCode;
  out.basicDetails = (
    await call(ada, 'PATCH', `/api/s/case-basic-details/${caseId}/`, basic)
  ).statusCode;
  out.address = (
    await call(ada, 'POST', '/api/s/case-addresses/', { case: caseId, ...address })
  ).statusCode;
  out.document = (
    await upload(ada, [
      { name: 'case', value: String(caseId) },
      { name: 'document_type', value: 'passport' },
      { name: 'file', value: png, filename: 'passport.png', contentType: 'image/png' },
    ])
  ).statusCode;
  out.onlineIdv = (await call(ada, 'POST', `/api/s/case-online-idv/${caseId}/start/`)).statusCode;
  return out;
}

describe('the routes that use the policy', () => {
  it("write to the subject's own open case where its sections allow", async () => {
    const res = await writes(adaCase);
    expect(res).toEqual({
      progress: 200,
      basicDetails: 200,
      address: 201,
      document: 201,
      onlineIdv: 201,
    });
  });

  it("refuse another subject's case (404) on every route, reads too", async () => {
    expect(await writes(bobCase)).toEqual({
      progress: 404,
      basicDetails: 404,
      address: 404,
      document: 404,
      onlineIdv: 404,
    });
    for (const url of [
      `/api/s/case-portal/${bobCase}/`,
      `/api/s/case-basic-details/${bobCase}/`,
      `/api/s/case-addresses/?case=${bobCase}`,
      `/api/s/case-documents/?case=${bobCase}`,
      `/api/s/case-online-idv/${bobCase}/`,
    ]) {
      expect((await call(ada, 'GET', url)).statusCode, url).toBe(404);
    }
  });

  it('refuse a closed case (404) on every route', async () => {
    expect(await writes(adaClosed)).toEqual({
      progress: 404,
      basicDetails: 404,
      address: 404,
      document: 404,
      onlineIdv: 404,
    });
    for (const url of [
      `/api/s/case-portal/${adaClosed}/`,
      `/api/s/case-basic-details/${adaClosed}/`,
      `/api/s/case-documents/?case=${adaClosed}`,
    ]) {
      expect((await call(ada, 'GET', url)).statusCode, url).toBe(404);
    }
  });

  it('refuse a write no section of the case allows (404), and allow the one it has', async () => {
    const res = await writes(adaBasicOnly);
    expect(res).toEqual({
      progress: 200,
      basicDetails: 200,
      address: 404,
      document: 404,
      onlineIdv: 404,
    });
    // reading stays allowed: the review page reads every record of its own open case
    const list = await call(ada, 'GET', `/api/s/case-addresses/?case=${adaBasicOnly}`);
    expect(list.statusCode, list.body).toBe(200);
  });

  it("refuse a consent for another subject's case or a closed one (404)", async () => {
    for (const caseId of [bobCase, adaClosed]) {
      const res = await call(ada, 'POST', '/api/s/consents/', {
        case: caseId,
        case_activity: 1,
        kind: 'dbs-update',
      });
      expect(res.statusCode, res.body).toBe(404);
    }
  });

  it('refuse every write once the case is submitted (403, the spec text)', async () => {
    // every section before Review done, then submitted
    const sections = await call(ada, 'GET', `/api/s/case-portal/${adaBasicOnly}/`);
    expect(sections.statusCode, sections.body).toBe(200);
    const done = await call(ada, 'PATCH', `/api/s/case-portal/${adaBasicOnly}/`, {
      portal_last_completed_section: 'basic-details',
    });
    expect(done.statusCode, done.body).toBe(200);
    const submit = await call(ada, 'POST', `/api/s/case-portal/${adaBasicOnly}/submit/`);
    expect(submit.statusCode, submit.body).toBe(200);
    const res = await call(ada, 'PATCH', `/api/s/case-basic-details/${adaBasicOnly}/`, {
      forename: 'Augusta',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe(SUBMITTED_DETAIL);
  });
});
