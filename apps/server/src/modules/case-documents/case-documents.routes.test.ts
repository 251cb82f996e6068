// @postgres: whole-app smoke on node-postgres: uploads, downloads, thumbnails made by a job

import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOCUMENT_MESSAGES, IDENTITY_DOCUMENT_TYPES } from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { defaultConfig } from '../../config.js';
import { SUBMITTED_DETAIL } from '../../platform/subject-access.js';
import { DOWNLOAD_CSP } from './content-disposition.js';
import {
  type FormPart,
  HEIC_SAMPLE,
  jpegFile,
  multipart,
  pdfWithScript,
  pngFile,
} from './test-files.js';

const MAX = 1024 * 1024;
const storageDir = mkdtempSync(join(tmpdir(), 'kestrel-docs-test-'));
const spoolDir = mkdtempSync(join(tmpdir(), 'kestrel-spool-test-'));

let t: TestApp;
let acme: number;
let subjectCase: number;
let otherSubjectCase: number;
let submittedCase: number;
let otherTenantCase: number;
let activity: number;
let staff: Client;
let viewer: Client;
let subject: Client;
let ops: Client;

/** Every file under a folder (recursively). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) =>
    statSync(join(dir, f)).isFile(),
  );
}

function upload(client: Client, url: string, parts: FormPart[], method: 'POST' | 'PUT' = 'POST') {
  const { payload, contentType } = multipart(parts);
  return t.app.inject({
    method,
    url,
    headers: { ...client.headers, 'content-type': contentType },
    payload,
  });
}

const fields = (caseId: number, type = 'passport'): FormPart[] => [
  { name: 'case', value: String(caseId) },
  { name: 'document_type', value: type },
];

beforeAll(async () => {
  t = await buildTestApp({
    config: {
      storage: { ...defaultConfig.storage, localDir: storageDir, spoolDir, maxUploadBytes: MAX },
    },
  });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    const other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    const s = await createSubjectUser(tx, { customerId: acme, email: 'docs-subject@example.test' });
    subjectCase = (await createCase(tx, { customerId: acme, subjectId: s.id })).id;
    submittedCase = (
      await createCase(tx, {
        customerId: acme,
        subjectId: s.id,
        activityStates: ['ca-in-progress'],
      })
    ).id;
    otherSubjectCase = (await createCase(tx, { customerId: acme })).id;
    otherTenantCase = (await createCase(tx, { customerId: other })).id;
    const rows = await tx.execute<{ id: number }>(
      sql`select id from case_activities where case_id = ${subjectCase} order by position limit 1`,
    );
    activity = Number(rows[0]?.id);
  });
  staff = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
  subject = await login(t.app, 'docs-subject@example.test');
  ops = await login(t.app, 'ops@k.test');
});
afterAll(() => t.close());

describe('uploads', () => {
  it('stores a PNG renamed .pdf as a PNG, with a thumbnail, under a server-made name', async () => {
    const png = await pngFile(600, 400);
    const res = await upload(subject, '/api/s/case-documents/', [
      ...fields(subjectCase),
      { name: 'case_activity', value: String(activity) },
      { name: 'file', value: png, filename: 'passport.pdf', contentType: 'application/pdf' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const doc = res.json();
    expect(doc).toMatchObject({
      case: subjectCase,
      case_activity: activity,
      document_type: 'Passport',
      document_type_code: 'passport',
      group: '1',
      source: 'manual',
      extension: 'png',
      rejected: false,
      uploaded_by: 'SubjectUser',
      content_url: `/api/s/case-documents/${doc.id}/download/`,
    });
    expect(doc.pages).toEqual([
      expect.objectContaining({
        original_name: 'passport.pdf',
        content_type: 'image/png',
        size: png.length,
      }),
    ]);
    const stored = filesUnder(storageDir);
    expect(stored.some((f) => f.includes('passport'))).toBe(false);
    expect(stored.filter((f) => f.endsWith('.png'))).toHaveLength(1);

    const dl = await t.app.inject({
      url: `${doc.content_url}?inline=true`,
      headers: subject.headers,
    });
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe('image/png');
    expect(dl.headers['content-disposition']).toBe(
      `inline; filename="passport.png"; filename*=UTF-8''passport.png`,
    );
    expect(dl.rawPayload.equals(png)).toBe(true);

    // the thumbnail is made in the background (the document-thumbnails job)
    expect(doc.pages[0].preview).toBe('pending');
    await t.settle();
    const thumb = await t.app.inject({ url: doc.thumbnail_url, headers: subject.headers });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(320);

    const audit = await t.owner((tx) =>
      tx.execute<{ verb: string; actor_type: string }>(
        sql`select verb, actor_type from audit_actions where content_type = 'cases.casedocument' and object_id = ${String(doc.id)}`,
      ),
    );
    expect(audit).toEqual([
      { verb: 'created', actor_type: 'SubjectUser' },
      // its preview, recorded by the thumbnail job (the system)
      { verb: 'updated', actor_type: null },
    ]);
  });

  it('converts a HEIC photo to JPEG, whatever its name says', async () => {
    const res = await upload(subject, '/api/s/case-documents/', [
      ...fields(subjectCase),
      { name: 'file', value: HEIC_SAMPLE, filename: 'IMG_0001.HEIC', contentType: 'image/heic' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const doc = res.json();
    expect(doc.pages).toEqual([
      expect.objectContaining({
        content_type: 'image/jpeg',
        extension: 'jpg',
        converted_from: 'heic',
      }),
    ]);
    const dl = await t.app.inject({ url: doc.content_url, headers: subject.headers });
    expect(dl.headers['content-disposition']).toContain('filename="IMG_0001.jpg"');
    const meta = await sharp(dl.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 64, 48]);
    expect(Number(dl.headers['content-length'])).toBe(dl.rawPayload.length);
  });

  it('refuses an HTML file posing as an image (400) and keeps nothing', async () => {
    await t.settle(); // the earlier uploads' thumbnails are made
    const before = filesUnder(storageDir).length;
    const res = await upload(subject, '/api/s/case-documents/', [
      ...fields(subjectCase),
      {
        name: 'file',
        value: '<html><body><script>alert(document.cookie)</script></body></html>',
        filename: 'photo.jpg',
        contentType: 'image/jpeg',
      },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ file: [DOCUMENT_MESSAGES.unsupportedType] });
    expect(filesUnder(storageDir)).toHaveLength(before);
    expect(filesUnder(spoolDir)).toEqual([]);
  });

  it('refuses a PNG header on garbage as an unreadable image', async () => {
    const fake = Buffer.concat([(await pngFile()).subarray(0, 40), Buffer.alloc(200, 7)]);
    const res = await upload(subject, '/api/s/case-documents/', [
      ...fields(subjectCase),
      { name: 'file', value: fake, filename: 'a.png', contentType: 'image/png' },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ file: [DOCUMENT_MESSAGES.unreadableImage] });
  });

  it('answers 413 while streaming a file over the cap, and leaves nothing behind', async () => {
    await t.settle(); // the earlier uploads' thumbnails are made
    const before = filesUnder(storageDir).length;
    const res = await upload(staff, '/api/case-documents/', [
      ...fields(subjectCase),
      { name: 'file', value: pdfWithScript(MAX + 10), filename: 'big.pdf' },
      // never reached: the cap stops the body at the first file
      { name: 'file', value: await pngFile(), filename: 'second.png' },
    ]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ file: [DOCUMENT_MESSAGES.tooLarge(MAX)] });
    expect(filesUnder(storageDir)).toHaveLength(before);
    expect(filesUnder(spoolDir)).toEqual([]);
  });

  it('serves a PDF containing a script with nosniff and a sandboxing CSP, as an attachment', async () => {
    const res = await upload(staff, '/api/case-documents/', [
      ...fields(subjectCase, 'utility-bill'),
      { name: 'collector', value: 'Branch 1' },
      {
        name: 'file',
        value: pdfWithScript(),
        filename: 'Bill (March) €.pdf',
        contentType: 'text/html',
      },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const doc = res.json();
    expect(doc).toMatchObject({
      extension: 'pdf',
      collector: 'Branch 1',
      uploaded_by: 'ProductUser',
    });
    const dl = await t.app.inject({ url: doc.content_url, headers: staff.headers });
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe('application/pdf');
    expect(dl.headers['x-content-type-options']).toBe('nosniff');
    const csp = String(dl.headers['content-security-policy']);
    expect(csp).toBe(DOWNLOAD_CSP);
    expect(csp.split(';').map((d) => d.trim())).toContain('sandbox');
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(dl.headers['content-disposition']).toBe(
      `attachment; filename="Bill (March) _.pdf"; filename*=UTF-8''Bill%20%28March%29%20%E2%82%AC.pdf`,
    );
    // its thumbnail is its first page: white, with the blue square in the lower left quarter
    await t.settle();
    const thumb = await t.app.inject({ url: doc.thumbnail_url, headers: staff.headers });
    const image = sharp(thumb.rawPayload);
    expect(await image.metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 320 });
    const pixel = async (left: number, top: number) => [
      ...(await image.clone().extract({ left, top, width: 1, height: 1 }).raw().toBuffer()),
    ];
    const [r, g, b] = await pixel(100, 200);
    expect([r ?? 255, g ?? 255, b ?? 0].map((v) => Math.round(v / 64))).toEqual([0, 0, 4]);
    expect((await pixel(250, 60)).every((v) => v > 240)).toBe(true);
  });

  it('strips bidirectional and control characters from the stored name and the download name', async () => {
    // 'invoice‮fdp.exe' reads as 'invoiceexe.pdf' on screen: the override must not survive
    const res = await upload(staff, '/api/case-documents/', [
      ...fields(subjectCase, 'utility-bill'),
      { name: 'file', value: await pngFile(), filename: 'scan\u202E\u2066gnp\u200F.exe\u0085' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const doc = res.json();
    expect(doc.pages[0].original_name).toBe('scangnp.exe');
    const dl = await t.app.inject({ url: doc.content_url, headers: staff.headers });
    expect(dl.headers['content-disposition']).toBe(
      `attachment; filename="scangnp.png"; filename*=UTF-8''scangnp.png`,
    );
    // a name stored before the rule (written straight to the row) is cleaned on the way out
    await t.owner((tx) =>
      tx.execute(
        sql`update case_documents set pages = jsonb_set(pages, '{0,originalName}', ${JSON.stringify('old\u202Eeman.png')}::jsonb) where id = ${doc.id}`,
      ),
    );
    const old = await t.app.inject({ url: doc.content_url, headers: staff.headers });
    expect(old.headers['content-disposition']).toBe(
      `attachment; filename="oldeman.png"; filename*=UTF-8''oldeman.png`,
    );
  });

  it('keeps a PDF whose page cannot be rendered, with no preview', async () => {
    const broken = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n');
    const res = await upload(staff, '/api/case-documents/', [
      ...fields(subjectCase, 'utility-bill'),
      { name: 'file', value: broken, filename: 'broken.pdf' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    await t.settle();
    const doc = (
      await t.app.inject({ url: `/api/case-documents/${res.json().id}/`, headers: staff.headers })
    ).json();
    expect(doc.pages[0].preview).toBe('none');
    const thumb = await t.app.inject({ url: doc.thumbnail_url, headers: staff.headers });
    expect([thumb.statusCode, thumb.json()]).toEqual([
      404,
      { detail: DOCUMENT_MESSAGES.noPreview },
    ]);
    const dl = await t.app.inject({ url: doc.content_url, headers: staff.headers });
    expect(dl.rawPayload.equals(broken)).toBe(true);
  });

  it('keeps several pages per document, adds one, and replaces them until submission', async () => {
    const created = await upload(subject, '/api/s/case-documents/', [
      ...fields(subjectCase, 'photocard-driving-licence-uk'),
      { name: 'file', value: await jpegFile(), filename: 'front.jpg' },
      { name: 'file', value: await pngFile(), filename: 'back.png' },
    ]);
    expect(created.statusCode, created.body).toBe(201);
    const doc = created.json();
    expect(
      doc.pages.map((p: { page: number; extension: string }) => [p.page, p.extension]),
    ).toEqual([
      [1, 'jpg'],
      [2, 'png'],
    ]);
    const second = await t.app.inject({
      url: `/api/s/case-documents/${doc.id}/download/?page=2&inline=true`,
      headers: subject.headers,
    });
    expect(second.headers['content-type']).toBe('image/png');

    const added = await upload(subject, `/api/s/case-documents/${doc.id}/pages/`, [
      { name: 'file', value: pdfWithScript(), filename: 'extra.pdf' },
    ]);
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().pages).toHaveLength(3);

    await t.settle(); // the three pages' thumbnails are made
    const keysBefore = filesUnder(storageDir);
    const replaced = await upload(
      subject,
      `/api/s/case-documents/${doc.id}/`,
      [{ name: 'file', value: await pngFile(30, 30), filename: 'retake.png' }],
      'PUT',
    );
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().pages).toEqual([
      expect.objectContaining({ original_name: 'retake.png' }),
    ]);
    // the three old pages and their thumbnails are gone, the new page and its thumbnail are there
    await t.settle();
    expect(filesUnder(storageDir).length).toBe(keysBefore.length - 6 + 2);

    const list = await t.app.inject({
      url: `/api/s/case-documents/?case=${subjectCase}&case_activity=${activity}`,
      headers: subject.headers,
    });
    expect(list.json().results.map((d: { id: number }) => d.id)).not.toContain(doc.id);
    const all = await t.app.inject({
      url: `/api/s/case-documents/?case=${subjectCase}`,
      headers: subject.headers,
    });
    expect(all.json().results.map((d: { id: number }) => d.id)).toContain(doc.id);

    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/s/case-documents/${doc.id}/`,
      headers: subject.headers,
    });
    expect(gone.statusCode).toBe(204);
    expect(filesUnder(storageDir).length).toBe(keysBefore.length - 6);
    // four pages decoded one at a time, each in a forked decoder process (a PDF's through pdf.js):
    // 12-20 s on a quiet machine, past the default 30 s on a loaded one
  }, 90_000);

  it("refuses a subject's changes once the case is submitted (403), and another tenant's or subject's case (404)", async () => {
    const png = await pngFile();
    const submitted = await upload(subject, '/api/s/case-documents/', [
      ...fields(submittedCase),
      { name: 'file', value: png, filename: 'a.png' },
    ]);
    expect(submitted.statusCode).toBe(403);
    // the subject case policy's answer for every subject write (api-contract: after submission)
    expect(submitted.json()).toEqual({ detail: SUBMITTED_DETAIL });
    for (const caseId of [otherSubjectCase, otherTenantCase]) {
      const res = await upload(subject, '/api/s/case-documents/', [
        ...fields(caseId),
        { name: 'file', value: png, filename: 'a.png' },
      ]);
      expect(res.statusCode).toBe(404);
    }
    const otherTenant = await upload(staff, '/api/case-documents/', [
      ...fields(otherTenantCase),
      { name: 'file', value: png, filename: 'a.png' },
    ]);
    expect(otherTenant.statusCode).toBe(404);
  });

  it('answers 400 with field errors for bad fields or no file', async () => {
    const res = await upload(staff, '/api/case-documents/', [
      { name: 'case', value: 'abc' },
      { name: 'document_type', value: 'spaceship' },
      { name: 'file', value: await pngFile(), filename: 'a.png' },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      case: ['A valid integer is required.'],
      document_type: [DOCUMENT_MESSAGES.unknownDocumentType],
    });
    const noFile = await upload(staff, '/api/case-documents/', fields(subjectCase));
    expect(noFile.json()).toEqual({ file: [DOCUMENT_MESSAGES.noFile] });
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/case-documents/',
      headers: staff.headers,
      payload: { case: subjectCase },
    });
    expect(json.statusCode).toBe(400);
    const wrongActivity = await upload(staff, '/api/case-documents/', [
      ...fields(otherSubjectCase),
      { name: 'case_activity', value: String(activity) },
      { name: 'file', value: await pngFile(), filename: 'a.png' },
    ]);
    expect(wrongActivity.json()).toEqual({ case_activity: [DOCUMENT_MESSAGES.activityNotInCase] });
  });
});

describe('eligibility confirmations', () => {
  const passportQuestions = () =>
    (IDENTITY_DOCUMENT_TYPES.find((d) => d.code === 'passport')?.questions ?? []).map((q) => q.id);

  it('keeps the confirmed questions of the type, audited, and says the document is confirmed', async () => {
    const ids = passportQuestions();
    const res = await upload(subject, '/api/s/case-documents/', [
      ...fields(subjectCase),
      { name: 'collector', value: 'identity' },
      { name: 'confirmations', value: ` ${ids.join(', ')},${ids[0]}` },
      { name: 'file', value: await pngFile(), filename: 'passport.png' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      collector: 'identity',
      confirmations: ids,
      confirmed: true,
    });
    const audit = await t.owner((tx) =>
      tx.execute<{ changes: { confirmations?: string[] } }>(
        sql`select changes from audit_actions where content_type = 'cases.casedocument' and object_id = ${String(res.json().id)} and verb = 'created'`,
      ),
    );
    expect(audit[0]?.changes.confirmations).toEqual(ids);
    const read = await t.app.inject({
      url: `/api/case-documents/${res.json().id}/`,
      headers: staff.headers,
    });
    expect(read.json()).toMatchObject({ confirmations: ids, confirmed: true });
  });

  it("answers 400 'Please confirm' when a question is not confirmed, and refuses unknown ones", async () => {
    const ids = passportQuestions();
    const partial = await upload(subject, '/api/s/case-documents/', [
      ...fields(subjectCase),
      { name: 'confirmations', value: ids.slice(1).join(',') },
      { name: 'file', value: await pngFile(), filename: 'passport.png' },
    ]);
    expect(partial.statusCode).toBe(400);
    expect(partial.json()).toEqual({ confirmations: ['Please confirm'] });
    const unknown = await upload(subject, '/api/s/case-documents/', [
      ...fields(subjectCase),
      { name: 'confirmations', value: [...ids, 'within-3-months'].join(',') },
      { name: 'file', value: await pngFile(), filename: 'passport.png' },
    ]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ confirmations: [DOCUMENT_MESSAGES.unknownQuestion] });
  });

  it('keeps the answers when pages are replaced, and drops them when the type changes without new ones', async () => {
    const ids = passportQuestions();
    const created = await upload(subject, '/api/s/case-documents/', [
      ...fields(subjectCase),
      { name: 'confirmations', value: ids.join(',') },
      { name: 'file', value: await pngFile(), filename: 'passport.png' },
    ]);
    const id = created.json().id;
    const same = await upload(
      subject,
      `/api/s/case-documents/${id}/`,
      [{ name: 'file', value: await pngFile(20, 20), filename: 'retake.png' }],
      'PUT',
    );
    expect(same.json()).toMatchObject({ confirmations: ids, confirmed: true });
    const bad = await upload(
      subject,
      `/api/s/case-documents/${id}/`,
      [
        { name: 'document_type', value: 'utility-bill' },
        { name: 'confirmations', value: ids.join(',') },
        { name: 'file', value: await pngFile(20, 20), filename: 'bill.png' },
      ],
      'PUT',
    );
    expect(bad.statusCode).toBe(400);
    const retyped = await upload(
      subject,
      `/api/s/case-documents/${id}/`,
      [
        { name: 'document_type', value: 'utility-bill' },
        { name: 'file', value: await pngFile(20, 20), filename: 'bill.png' },
      ],
      'PUT',
    );
    expect(retyped.statusCode, retyped.body).toBe(200);
    expect(retyped.json()).toMatchObject({
      document_type_code: 'utility-bill',
      confirmations: [],
      confirmed: false,
    });
  });

  it('leaves a document without answers unconfirmed (staff uploads need none)', async () => {
    const res = await upload(staff, '/api/case-documents/', [
      ...fields(subjectCase),
      { name: 'file', value: await pngFile(), filename: 'passport.png' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ confirmations: [], confirmed: false });
  });
});

describe('reading across audiences', () => {
  let docId: number;
  beforeAll(async () => {
    const res = await upload(staff, '/api/case-documents/', [
      ...fields(otherSubjectCase),
      { name: 'file', value: await pngFile(), filename: 'other.png' },
    ]);
    docId = res.json().id;
  });

  it("hides another subject's and another tenant's documents (404)", async () => {
    for (const url of [
      `/api/s/case-documents/${docId}/`,
      `/api/s/case-documents/${docId}/download/`,
      `/api/s/case-documents/?case=${otherSubjectCase}`,
    ]) {
      expect((await t.app.inject({ url, headers: subject.headers })).statusCode).toBe(404);
    }
    const b = await t.owner(async (tx) => {
      const other = (await createCustomer(tx, { name: 'B' })).id;
      await createAdminAndViewer(tx, other, 'b.test');
      return other;
    });
    expect(b).toBeGreaterThan(0);
    const bStaff = await login(t.app, 'admin@b.test');
    for (const url of [`/api/case-documents/${docId}/`, `/api/case-documents/${docId}/download/`]) {
      expect((await t.app.inject({ url, headers: bStaff.headers })).statusCode).toBe(404);
    }
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/case-documents/${docId}/`,
      headers: bStaff.headers,
    });
    expect(del.statusCode).toBe(404);
  });

  it('lets a viewer read but not write (403), and ops read through /api/ops/', async () => {
    const read = await t.app.inject({
      url: `/api/case-documents/${docId}/`,
      headers: viewer.headers,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().content_url).toBe(`/api/case-documents/${docId}/download/`);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/case-documents/${docId}/`,
      headers: viewer.headers,
    });
    expect(del.statusCode).toBe(403);
    const write = await upload(viewer, '/api/case-documents/', [
      ...fields(otherSubjectCase),
      { name: 'file', value: await pngFile(), filename: 'a.png' },
    ]);
    expect(write.statusCode).toBe(403);
    const o = await t.app.inject({
      url: `/api/ops/case-documents/${docId}/`,
      headers: ops.headers,
    });
    expect(o.statusCode).toBe(200);
    expect(o.json().content_url).toBe(`/api/ops/case-documents/${docId}/download/`);
    const list = await t.app.inject({
      url: `/api/ops/case-documents/?case=${otherSubjectCase}`,
      headers: ops.headers,
    });
    expect(list.json()).toMatchObject({ count: 1, next: null, previous: null });
    expect(
      (await t.app.inject({ url: `/api/ops/case-documents/${docId}/`, headers: staff.headers }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ url: `/api/s/case-documents/${docId}/`, headers: staff.headers }))
        .statusCode,
    ).toBe(403);
  });

  it("lets ops upload and delete across customers, audited under the case's customer", async () => {
    const res = await upload(ops, '/api/ops/case-documents/', [
      ...fields(otherTenantCase, 'birth-certificate-at-birth'),
      { name: 'file', value: await jpegFile(), filename: 'cert.jpg' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id;
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/api/ops/case-documents/${id}/download/`,
      headers: ops.headers,
    });
    expect([head.statusCode, head.headers['x-content-type-options']]).toEqual([200, 'nosniff']);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/ops/case-documents/${id}/`,
      headers: ops.headers,
    });
    expect(del.statusCode).toBe(204);
    const rows = await t.owner((tx) =>
      tx.execute<{ verb: string; customer_id: number; actor_type: string }>(
        sql`select a.verb, a.customer_id, a.actor_type from audit_actions a
            where a.content_type = 'cases.casedocument' and a.object_id = ${String(id)} order by a.id`,
      ),
    );
    const owner = await t.owner((tx) =>
      tx.execute<{ customer_id: number }>(
        sql`select customer_id from cases where id = ${otherTenantCase}`,
      ),
    );
    expect(rows).toEqual(
      ['created', 'deleted'].map((verb) => ({
        verb,
        customer_id: owner[0]?.customer_id,
        actor_type: 'ProductUser',
      })),
    );
  });

  it('needs the case filter on a list, and a page number from 1', async () => {
    const res = await t.app.inject({ url: '/api/case-documents/', headers: staff.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ case: ['Required'] });
    const page = (p: string) =>
      t.app.inject({
        url: `/api/case-documents/?case=${otherSubjectCase}&page=${p}&page_size=1`,
        headers: staff.headers,
      });
    for (const bad of ['0', '-1', 'x']) {
      const r = await page(bad);
      expect([bad, r.statusCode, r.json()]).toEqual([bad, 400, { page: ['Invalid page.'] }]);
    }
    expect((await page('1')).json()).toMatchObject({ count: 1, next: null });
    expect((await page('2')).statusCode).toBe(404);
  });
});
