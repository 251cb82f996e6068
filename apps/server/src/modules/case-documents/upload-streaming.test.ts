import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOCUMENT_MESSAGES } from '@kestrel/domain';
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
import { pdfWithScript } from './test-files.js';

/**
 * Over a real socket: a 20 MB upload reaches the disk while it is still being sent (it is
 * streamed, never held whole), and one over the 25 MB cap is answered 413 before the client has
 * sent it all.
 */
const MB = 1024 * 1024;
const spoolDir = mkdtempSync(join(tmpdir(), 'kestrel-stream-spool-'));
const storageDir = mkdtempSync(join(tmpdir(), 'kestrel-stream-docs-'));
let t: TestApp;
let staff: Client;
let caseId: number;
let port: number;

const spooled = () => {
  const dir = join(spoolDir, 'kestrel-uploads');
  try {
    return readdirSync(dir).map((f) => statSync(join(dir, f)).size);
  } catch {
    return [];
  }
};
const stored = () =>
  readdirSync(storageDir, { recursive: true, encoding: 'utf8' }).filter((f) =>
    statSync(join(storageDir, f)).isFile(),
  );

beforeAll(async () => {
  t = await buildTestApp({
    config: { storage: { ...defaultConfig.storage, spoolDir, localDir: storageDir } },
  });
  await t.owner(async (tx) => {
    const acme = (await createCustomer(tx, { name: 'Acme' })).id;
    await createAdminAndViewer(tx, acme);
    caseId = (await createCase(tx, { customerId: acme })).id;
  });
  staff = await login(t.app, 'admin@acme.test');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends a multipart upload of `total` file bytes in 1 MB chunks, calling `between(sent)` after
 * each; stops writing as soon as the server answers. Resolves with the answer and what was sent.
 */
function streamUpload(
  total: number,
  between: (sent: number) => Promise<void>,
): Promise<{ res: IncomingMessage; body: string; sent: number }> {
  const boundary = '----kestrelstream';
  const head = Buffer.from(
    [
      `--${boundary}`,
      'Content-Disposition: form-data; name="case"',
      '',
      String(caseId),
      `--${boundary}`,
      'Content-Disposition: form-data; name="document_type"',
      '',
      'passport',
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="big.pdf"',
      'Content-Type: application/pdf',
      '',
      '',
    ].join('\r\n'),
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const pdf = pdfWithScript();
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/case-documents/',
      headers: {
        ...staff.headers,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + total + tail.length),
        connection: 'close',
      },
    });
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () => {
        req.destroy();
        resolve({ res, body, sent });
      });
    });
    // the server may close the socket once it has answered a refused upload
    req.on('error', (err) => (answered ? undefined : reject(err)));
    (async () => {
      req.write(head);
      req.write(pdf);
      sent = pdf.length;
      const chunk = Buffer.alloc(MB, 0x20);
      while (sent < total && !answered) {
        const n = Math.min(MB, total - sent);
        if (!req.write(n === MB ? chunk : chunk.subarray(0, n))) {
          await new Promise<void>((r) => {
            const done = () => r();
            req.once('drain', done);
            setTimeout(done, 200);
          });
        }
        sent += n;
        await between(sent);
      }
      if (!answered) req.end(tail);
    })().catch(reject);
  });
}

describe('streamed uploads', () => {
  it('writes a 20 MB file to disk while it is still arriving, then stores it whole', async () => {
    let seenWhileSending = 0;
    const { res, body } = await streamUpload(20 * MB, async (sent) => {
      if (sent === 10 * MB + pdfWithScript().length || (sent > 10 * MB && seenWhileSending === 0)) {
        // the request is half sent: its file is already on disk, not in memory
        for (let i = 0; i < 50 && seenWhileSending < 5 * MB; i++) {
          await sleep(20);
          seenWhileSending = Math.max(0, ...spooled());
        }
      }
    });
    expect(res.statusCode, body).toBe(201);
    expect(seenWhileSending).toBeGreaterThanOrEqual(5 * MB);
    expect(JSON.parse(body).pages[0]).toMatchObject({
      content_type: 'application/pdf',
      size: 20 * MB,
    });
    expect(spooled()).toEqual([]);
    expect(stored().filter((f) => f.endsWith('.pdf'))).toHaveLength(1);
  }, 60_000);

  it('answers 413 as soon as a file passes the cap, before the rest is sent', async () => {
    const before = stored().length;
    const { res, body, sent } = await streamUpload(60 * MB, async () => undefined);
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(body)).toEqual({ file: [DOCUMENT_MESSAGES.tooLarge(25 * MB)] });
    expect(sent).toBeLessThan(40 * MB);
    await sleep(50);
    expect(spooled()).toEqual([]);
    expect(stored()).toHaveLength(before);
  }, 60_000);
});
