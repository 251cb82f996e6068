import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { createCaseAddress, createCaseBasicDetails } from '../case-data/case-data.factories.js';
import { createCaseDocument } from '../case-documents/case-documents.factories.js';
import { unzip } from './test-zip.js';

let t: TestApp;
let acme: number;
let other: number;
let grace: { id: number; email: string };
let ada: number;
let foreign: number;
let graceDoc: { key: string; bytes: Buffer };
let admin: Client;
let viewer: Client;
let nobody: Client;
let otherAdmin: Client;

const get = (client: Client, url: string) =>
  t.app.inject({ method: 'GET', url, headers: client.headers });

async function bytesOf(key: string): Promise<Buffer> {
  const stream = await t.app.deps.storage.get(key);
  if (!stream) throw new Error(`no file ${key}`);
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
}

/** A subject with a case holding basic details, an address and a one-page document. */
async function personWithCase(customerId: number, first: string, email: string) {
  return t.owner(async (tx) => {
    const s = await createSubjectUser(tx, {
      customerId,
      firstName: first,
      lastName: 'Test',
      email,
    });
    const process = await createProcess(tx, { customerId });
    const c = await createCase(tx, { customerId, processId: process.id, subjectId: s.id });
    await createCaseBasicDetails(
      tx,
      { customerId, caseId: c.id },
      { forename: first, surname: 'Test', dob: '1980-01-01' },
      { nin: first === 'Grace' ? 'GH123456A' : 'ZZ999999Z' },
    );
    await createCaseAddress(tx, { customerId, caseId: c.id }, {});
    const doc = await createCaseDocument(tx, t.app.deps.storage, { customerId, caseId: c.id });
    const page = doc.pages[0];
    if (!page) throw new Error('no page');
    return { id: s.id, email: s.email, key: page.key };
  });
}

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
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
    await createProductUser(tx, {
      customerId: other,
      username: 'admin@other.test',
      roles: ['admin'],
    });
  });
  const g = await personWithCase(acme, 'Grace', 'grace@example.test');
  grace = { id: g.id, email: g.email };
  graceDoc = { key: g.key, bytes: await bytesOf(g.key) };
  ada = (await personWithCase(acme, 'Ada', 'ada@example.test')).id;
  foreign = (await personWithCase(other, 'Xena', 'xena@example.test')).id;
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
  nobody = await login(t.app, 'none@acme.test');
  otherAdmin = await login(t.app, 'admin@other.test');
});

afterAll(async () => {
  await t?.close();
});

interface ArchiveJson {
  records: {
    customer: { id: number; name: string };
    subject: { id: number; first_name: string; email: string };
    cases: {
      id: number;
      checks: { check: string; state_display: string }[];
      case_data: Record<string, Record<string, unknown>[]>;
      documents: { files: string[] }[];
    }[];
  }[];
}

async function archiveOf(res: { statusCode: number; rawPayload: Buffer }) {
  expect(res.statusCode).toBe(200);
  const files = await unzip(res.rawPayload);
  const json: ArchiveJson = JSON.parse(String(files.get('data.json')));
  return { files, json, summary: String(files.get('summary.txt')) };
}

describe('GET /api/subjects/:id/data-archive/', () => {
  it('gives the customer a ZIP of everything held about the subject, and nothing of another', async () => {
    const res = await get(admin, `/api/subjects/${grace.id}/data-archive/`);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="kestrel-data-/);
    const { files, json, summary } = await archiveOf(res);
    expect(json.records).toHaveLength(1);
    const [rec] = json.records;
    expect(rec?.subject).toMatchObject({ id: grace.id, first_name: 'Grace', email: grace.email });
    const [c] = rec?.cases ?? [];
    expect(c?.checks.map((x) => x.check)).toEqual([
      'Basic details',
      'Address history',
      'Basic DBS check',
    ]);
    expect(c?.case_data.case_basic_details?.[0]).toMatchObject({
      forename: 'Grace',
      nin: 'GH123456A',
    });
    expect(c?.case_data.case_addresses?.length).toBe(1);
    const path = c?.documents[0]?.files[0] ?? '';
    expect(path).toMatch(/^documents\/customer-\d+\/case-\d+\/document-\d+-page-1\.png$/);
    expect(files.get(path)?.equals(graceDoc.bytes)).toBe(true);
    expect(summary).toContain('Organisation: Acme');
    expect(summary).toContain('Name: Grace Test');
    // nothing of Ada (same customer) or Xena (another)
    const all = [...files.values()].map(String).join('\n');
    expect(all).not.toContain('Ada');
    expect(all).not.toContain('ZZ999999Z');
    expect(all).not.toContain('Xena');
    expect([...files.keys()].sort()).toEqual(['data.json', path, 'summary.txt'].sort());
  });

  it('audits each archive produced: who, for whom', async () => {
    await get(viewer, `/api/subjects/${ada}/data-archive/`);
    const rows = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.verb, 'data_archive_downloaded'),
            eq(auditActions.objectId, String(ada)),
          ),
        ),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      customerId: acme,
      actorType: 'ProductUser',
      contentType: 'subjects.subject',
      changes: { archive: 'subject access', documents: 1 },
    });
  });

  it('refuses a user without the permission (403), another tenant and unknown ids (404)', async () => {
    expect((await get(nobody, `/api/subjects/${grace.id}/data-archive/`)).statusCode).toBe(403);
    const theirs = await get(otherAdmin, `/api/subjects/${grace.id}/data-archive/`);
    expect([theirs.statusCode, theirs.json()]).toEqual([404, { detail: 'Not found.' }]);
    expect((await get(admin, `/api/subjects/${foreign}/data-archive/`)).statusCode).toBe(404);
    expect((await get(admin, '/api/subjects/x/data-archive/')).statusCode).toBe(404);
  });
});

describe('GET /api/s/data-archive/', () => {
  it("gives the subject its own records at every customer holding it, no one else's", async () => {
    // the same person held by the other customer too (one login)
    const second = await t.owner(async (tx) => {
      const s = await createSubjectUser(tx, {
        customerId: other,
        email: grace.email,
        firstName: 'Grace',
      });
      await createCase(tx, { customerId: other, subjectId: s.id });
      return s.id;
    });
    const me = await login(t.app, grace.email);
    const { files, json } = await archiveOf(await get(me, '/api/s/data-archive/'));
    expect(json.records.map((r) => [r.customer.name, r.subject.id])).toEqual([
      ['Acme', grace.id],
      ['Other', second],
    ]);
    expect(json.records[1]?.cases).toHaveLength(1);
    const all = [...files.values()].map(String).join('\n');
    expect(all).not.toContain('Xena');
    expect(all).not.toContain('ZZ999999Z');
    const audited = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.verb, 'data_archive_downloaded'),
            eq(auditActions.actorType, 'SubjectUser'),
          ),
        ),
    );
    expect(audited.map((a) => [a.customerId, a.objectId]).sort()).toEqual(
      [
        [acme, String(grace.id)],
        [other, String(second)],
      ].sort(),
    );
  });

  it('is for subjects only', async () => {
    expect((await get(admin, '/api/s/data-archive/')).statusCode).toBe(403);
  });
});
