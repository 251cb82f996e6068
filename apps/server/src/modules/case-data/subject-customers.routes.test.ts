import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { defaultConfig } from '../../config.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { type FormPart, multipart, pngFile } from '../case-documents/test-files.js';

/**
 * Issue 16: one subject login held by two customers (decision 005). Her session acts for the
 * newest customer (Northgate); the case-data and case-documents subject routes act for the
 * customer of the case they are about, so her OLDER customer's (Acme's) case answers too,
 * while another person's case stays 404 and Northgate's staff still cannot see Acme's case.
 */
const storageDir = mkdtempSync(join(tmpdir(), 'kestrel-subject-scope-'));
const spoolDir = mkdtempSync(join(tmpdir(), 'kestrel-subject-scope-spool-'));

let t: TestApp;
let acme: number;
let northgate: number;
let acmeCase: number; // Ada's at Acme (the older customer, not her session's)
let northgateCase: number; // Ada's at Northgate (her session's customer)
let bobCase: number; // Bob's at Acme
let ada: Client;
let bob: Client;
let acmeAdmin: Client;
let northgateAdmin: Client;

beforeAll(async () => {
  t = await buildTestApp({
    config: { storage: { ...defaultConfig.storage, localDir: storageDir, spoolDir } },
  });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    northgate = (await createCustomer(tx, { name: 'Northgate' })).id;
    await createAdminAndViewer(tx, acme);
    await createAdminAndViewer(tx, northgate, 'northgate.test');
    const adaAcme = await createSubjectUser(tx, {
      customerId: acme,
      email: 'ada@example.test',
      firstName: 'Ada',
      lastName: 'Byron',
      createdAt: new Date('2026-01-01T00:00:00Z'),
    });
    // the same person, taken on later by a second customer (one login, two records)
    const adaNorthgate = await createSubjectUser(tx, {
      customerId: northgate,
      email: 'ada@example.test',
      firstName: 'Ada',
      lastName: 'Byron',
      createdAt: new Date('2026-06-01T00:00:00Z'),
    });
    const bobRecord = await createSubjectUser(tx, { customerId: acme, email: 'bob@example.test' });
    const withDbs = await createProcess(tx, {
      customerId: acme,
      requirements: ['basic-details', 'address-history', 'dbs-basic'],
    });
    acmeCase = (
      await createCase(tx, {
        customerId: acme,
        processId: withDbs.id,
        subjectId: adaAcme.id,
        activityStates: ['ca-awaiting-subject', 'ca-awaiting-subject', 'ca-awaiting-subject'],
      })
    ).id;
    northgateCase = (await createCase(tx, { customerId: northgate, subjectId: adaNorthgate.id }))
      .id;
    bobCase = (await createCase(tx, { customerId: acme, subjectId: bobRecord.id })).id;
  });
  ada = await login(t.app, 'ada@example.test');
  bob = await login(t.app, 'bob@example.test');
  acmeAdmin = await login(t.app, 'admin@acme.test');
  northgateAdmin = await login(t.app, 'admin@northgate.test');
});
afterAll(() => t.close());

const call = (
  c: Client,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: c.headers, ...(payload ? { payload } : {}) });

function upload(c: Client, url: string, parts: FormPart[], method: 'POST' | 'PUT' = 'POST') {
  const { payload, contentType } = multipart(parts);
  return t.app.inject({
    method,
    url,
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
  postcode: 'de1 1aa',
  from_date: '2024-05-25',
  to_date: '2024-11-23',
  source: 'manual',
};

describe('case data of a subject held by two customers', () => {
  it("reads and writes basic details on the older customer's case", async () => {
    const created = await call(ada, 'POST', '/api/s/case-basic-details/', {
      ...basic,
      case: acmeCase,
    });
    expect(created.statusCode, created.body).toBe(201);
    const got = await call(ada, 'GET', `/api/s/case-basic-details/${acmeCase}/`);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json()).toMatchObject({ case: acmeCase, forename: 'Ada', surname: 'Byron' });
    const patched = await call(ada, 'PATCH', `/api/s/case-basic-details/${acmeCase}/`, {
      phone_number: '07911 123457',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().phone_number).toBe('+447911123457');
    // the write is audited in the case customer's trail, as the subject
    const audits = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'cases.casebasicdetails'),
            eq(auditActions.customerId, acme),
          ),
        ),
    );
    expect(audits.length).toBeGreaterThan(0);
    expect(audits.every((a) => a.actorType === 'SubjectUser')).toBe(true);
    // Acme's staff see what she saved
    const staff = await call(acmeAdmin, 'GET', `/api/case-basic-details/${acmeCase}/`);
    expect(staff.json().phone_number).toBe('+447911123457');
  });

  it("adds, lists, changes and removes an address on the older customer's case", async () => {
    const created = await call(ada, 'POST', '/api/s/case-addresses/', {
      ...address,
      case: acmeCase,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = Number(created.json().id);
    const list = await call(ada, 'GET', `/api/s/case-addresses/?case=${acmeCase}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().results.map((a: { id: number }) => a.id)).toContain(id);
    const one = await call(ada, 'GET', `/api/s/case-addresses/${id}/`);
    expect(one.statusCode, one.body).toBe(200);
    const patched = await call(ada, 'PATCH', `/api/s/case-addresses/${id}/`, { town: 'Leeds' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().town).toBe('Leeds');
    // Bob cannot touch it; Northgate's staff cannot see it
    expect((await call(bob, 'GET', `/api/s/case-addresses/${id}/`)).statusCode).toBe(404);
    expect(
      (await call(bob, 'PATCH', `/api/s/case-addresses/${id}/`, { town: 'X' })).statusCode,
    ).toBe(404);
    expect((await call(northgateAdmin, 'GET', `/api/case-addresses/${id}/`)).statusCode).toBe(404);
    const del = await call(ada, 'DELETE', `/api/s/case-addresses/${id}/`);
    expect(del.statusCode, del.body).toBe(204);
    expect((await call(ada, 'GET', `/api/s/case-addresses/${id}/`)).statusCode).toBe(404);
  });

  it("still answers her session customer's case", async () => {
    const res = await call(ada, 'POST', '/api/s/case-basic-details/', {
      ...basic,
      case: northgateCase,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((await call(ada, 'GET', `/api/s/case-basic-details/${northgateCase}/`)).statusCode).toBe(
      200,
    );
  });

  it("answers 404 for another person's case, and other customers' staff cannot see it", async () => {
    expect((await call(ada, 'GET', `/api/s/case-basic-details/${bobCase}/`)).statusCode).toBe(404);
    expect(
      (await call(ada, 'POST', '/api/s/case-basic-details/', { ...basic, case: bobCase }))
        .statusCode,
    ).toBe(404);
    expect((await call(ada, 'GET', `/api/s/case-addresses/?case=${bobCase}`)).statusCode).toBe(404);
    expect(
      (await call(ada, 'POST', '/api/s/case-addresses/', { ...address, case: bobCase })).statusCode,
    ).toBe(404);
    expect((await call(bob, 'GET', `/api/s/case-basic-details/${acmeCase}/`)).statusCode).toBe(404);
    expect((await call(ada, 'GET', '/api/s/case-basic-details/99999/')).statusCode).toBe(404);
    expect(
      (await call(northgateAdmin, 'GET', `/api/case-basic-details/${acmeCase}/`)).statusCode,
    ).toBe(404);
    expect(
      (await call(northgateAdmin, 'GET', `/api/case-addresses/?case=${acmeCase}`)).statusCode,
    ).toBe(404);
  });
});

describe('DBS details and the online identity check of a subject held by two customers', () => {
  it("reads and changes them on the older customer's case; 404 for another person's", async () => {
    const dbs = await call(ada, 'GET', `/api/s/case-dbs-details/${acmeCase}/`);
    expect(dbs.statusCode, dbs.body).toBe(200);
    const patched = await call(ada, 'PATCH', `/api/s/case-dbs-details/${acmeCase}/`, {});
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await call(bob, 'GET', `/api/s/case-dbs-details/${acmeCase}/`)).statusCode).toBe(404);
    expect((await call(ada, 'GET', `/api/s/case-dbs-details/${bobCase}/`)).statusCode).toBe(404);
    const idv = await call(ada, 'GET', `/api/s/case-online-idv/${acmeCase}/`);
    expect(idv.statusCode, idv.body).toBe(200);
    expect((await call(ada, 'GET', `/api/s/case-online-idv/${bobCase}/`)).statusCode).toBe(404);
    expect((await call(bob, 'GET', `/api/s/case-online-idv/${acmeCase}/`)).statusCode).toBe(404);
  });
});

describe('case documents of a subject held by two customers', () => {
  it("uploads, lists and downloads a document on the older customer's case", async () => {
    const png = await pngFile(200, 120);
    const res = await upload(ada, '/api/s/case-documents/', [
      { name: 'case', value: String(acmeCase) },
      { name: 'document_type', value: 'passport' },
      { name: 'file', value: png, filename: 'passport.png', contentType: 'image/png' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const doc = res.json();
    expect(doc.case).toBe(acmeCase);

    const list = await call(ada, 'GET', `/api/s/case-documents/?case=${acmeCase}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().results.map((d: { id: number }) => d.id)).toEqual([doc.id]);

    const one = await call(ada, 'GET', `/api/s/case-documents/${doc.id}/`);
    expect(one.statusCode, one.body).toBe(200);

    const file = await call(ada, 'GET', `/api/s/case-documents/${doc.id}/download/`);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(png)).toBe(true);
    await t.settle(); // its thumbnail is made in the background
    const thumb = await call(ada, 'GET', `/api/s/case-documents/${doc.id}/thumbnail/`);
    expect(thumb.statusCode).toBe(200);

    // another page added, then the document replaced, on the older customer's case
    const added = await upload(ada, `/api/s/case-documents/${doc.id}/pages/`, [
      {
        name: 'file',
        value: await pngFile(80, 60),
        filename: 'back.png',
        contentType: 'image/png',
      },
    ]);
    expect(added.statusCode, added.body).toBe(200);

    // Acme's staff see it; Northgate's staff and Bob do not
    expect((await call(acmeAdmin, 'GET', `/api/case-documents/${doc.id}/`)).statusCode).toBe(200);
    expect((await call(northgateAdmin, 'GET', `/api/case-documents/${doc.id}/`)).statusCode).toBe(
      404,
    );
    expect(
      (await call(northgateAdmin, 'GET', `/api/case-documents/${doc.id}/download/`)).statusCode,
    ).toBe(404);
    expect((await call(bob, 'GET', `/api/s/case-documents/${doc.id}/`)).statusCode).toBe(404);
    expect((await call(bob, 'GET', `/api/s/case-documents/${doc.id}/download/`)).statusCode).toBe(
      404,
    );
    expect((await call(bob, 'DELETE', `/api/s/case-documents/${doc.id}/`)).statusCode).toBe(404);

    const del = await call(ada, 'DELETE', `/api/s/case-documents/${doc.id}/`);
    expect(del.statusCode, del.body).toBe(204);
    expect((await call(ada, 'GET', `/api/s/case-documents/${doc.id}/`)).statusCode).toBe(404);
  });

  it("refuses an upload to another person's case (404)", async () => {
    const res = await upload(ada, '/api/s/case-documents/', [
      { name: 'case', value: String(bobCase) },
      { name: 'document_type', value: 'passport' },
      { name: 'file', value: await pngFile(), filename: 'p.png', contentType: 'image/png' },
    ]);
    expect(res.statusCode).toBe(404);
    expect((await call(ada, 'GET', `/api/s/case-documents/?case=${bobCase}`)).statusCode).toBe(404);
  });
});
