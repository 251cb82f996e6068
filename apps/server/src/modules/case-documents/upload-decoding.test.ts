import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOCUMENT_MESSAGES } from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { defaultConfig } from '../../config.js';
import { hugePng, multipart, pdfBomb, pdfWithScript, pngFile } from './test-files.js';

/**
 * Hostile uploads (issue 26): a PDF whose content stream inflates to hundreds of MB, a PNG of
 * 256 megapixels. The upload answers at once (no decoding in the request), the file is kept, its
 * preview ends 'none', and this process's memory does not balloon (the decoding is a decoder
 * process's, killed or refused past its limits).
 */
const MB = 1024 * 1024;
let t: TestApp;
let staff: Client;
let caseId: number;

beforeAll(async () => {
  t = await buildTestApp({
    config: {
      storage: {
        ...defaultConfig.storage,
        localDir: mkdtempSync(join(tmpdir(), 'kestrel-decoding-docs-')),
        spoolDir: mkdtempSync(join(tmpdir(), 'kestrel-decoding-spool-')),
      },
    },
  });
  await t.owner(async (tx) => {
    const acme = (await createCustomer(tx, { name: 'Acme' })).id;
    await createAdminAndViewer(tx, acme);
    caseId = (await createCase(tx, { customerId: acme })).id;
  });
  staff = await login(t.app, 'admin@acme.test');
});
afterAll(() => t.close());

async function upload(file: Buffer, filename: string) {
  const { payload, contentType } = multipart([
    { name: 'case', value: String(caseId) },
    { name: 'document_type', value: 'utility-bill' },
    { name: 'file', value: file, filename },
  ]);
  const started = performance.now();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/case-documents/',
    headers: { ...staff.headers, 'content-type': contentType },
    payload,
  });
  return { res, ms: performance.now() - started };
}

const get = (url: string) => t.app.inject({ url, headers: staff.headers });

/** Runs the queued jobs, sampling this process's resident memory meanwhile: the peak. */
async function settleWatchingMemory(): Promise<number> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  try {
    await t.settle();
  } finally {
    clearInterval(timer);
  }
  return peak;
}

describe('hostile uploads', () => {
  it.each([
    ['a PDF inflating to 300 MB', () => pdfBomb(300 * MB), 'bomb.pdf', 'application/pdf'],
    ['a 16000×16000 PNG', () => hugePng(), 'huge.png', 'image/png'],
  ])('%s: stored at once, no preview, the server keeps its memory', async (_, make, name, type) => {
    const file = await make();
    expect(file.length).toBeLessThan(MB);
    const before = process.memoryUsage.rss();
    const { res, ms } = await upload(file, name);
    expect(res.statusCode, res.body).toBe(201);
    expect(ms).toBeLessThan(1500);
    const doc = res.json();
    expect(doc.pages[0]).toMatchObject({
      content_type: type,
      size: file.length,
      preview: 'pending',
    });
    const pending = await get(doc.thumbnail_url);
    expect([pending.statusCode, pending.json()]).toEqual([
      404,
      { detail: DOCUMENT_MESSAGES.noPreview },
    ]);

    const peak = await settleWatchingMemory();
    expect(peak - before).toBeLessThan(100 * MB);
    const after = (await get(`/api/case-documents/${doc.id}/`)).json();
    expect(after.pages[0].preview).toBe('none');
    expect((await get(doc.thumbnail_url)).statusCode).toBe(404);
    // the file itself is kept, whole
    const dl = await get(doc.content_url);
    expect([dl.statusCode, dl.rawPayload.equals(file)]).toEqual([200, true]);
    // the preview's outcome is audited as the system's change
    const audit = await t.owner((tx) =>
      tx.execute<{ changes: unknown }>(
        sql`select changes from audit_actions where content_type = 'cases.casedocument' and object_id = ${String(doc.id)} and verb = 'updated'`,
      ),
    );
    expect(audit).toEqual([{ changes: { previews: [{ page: 1, preview: 'none' }] } }]);
  });

  it('gives an ordinary PDF and photo their previews once the job has run', async () => {
    const pdf = (await upload(pdfWithScript(), 'bill.pdf')).res.json();
    const png = (await upload(await pngFile(640, 480), 'photo.png')).res.json();
    await t.settle();
    for (const doc of [pdf, png]) {
      expect((await get(`/api/case-documents/${doc.id}/`)).json().pages[0].preview).toBe('ready');
      const thumb = await get(doc.thumbnail_url);
      expect(thumb.statusCode).toBe(200);
      const meta = await sharp(thumb.rawPayload).metadata();
      expect([meta.format, Math.max(meta.width ?? 0, meta.height ?? 0)]).toEqual(['jpeg', 320]);
    }
  });
});
