// The hostile-upload bench (issue 26): a PDF decompression bomb (a 1 MB file whose content stream
// inflates to 1 GB) and a 16000×16000 PNG, each uploaded over a real socket to the server on an
// embedded database (PGlite in a temporary folder) with its job workers on. Measures the upload's
// request time, the server process's resident memory (sampled every 10 ms: before, peak while the
// upload and its thumbnail job run, after), the decoder process's peak (as the pool reports it),
// the job's time, the preview it ends with, and /healthz's slowest answer meanwhile.
// Run by `node scripts/bench.mjs --only=uploads`.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { defaultConfig } from '../src/config.js';
import { openPglite, pgliteDatabase } from '../src/db/connection.js';
import { createCase, createCustomer, createProductUser } from '../src/db/factories.js';
import { migrateDatabase } from '../src/db/migrate.js';
import type { DecoderOutcome } from '../src/modules/case-documents/decoder-limits.js';
import { decoderOutcomes } from '../src/modules/case-documents/decoder-pool.js';
import { hugePng, multipart, pdfBomb } from '../src/modules/case-documents/test-files.js';

const MB = 1024 * 1024;
const send = (m: object) => (process.send ? process.send(m) : console.log(JSON.stringify(m)));
const log = (text: string) => send({ type: 'log', text });
const mb = (bytes: number) => Math.round(bytes / MB);

const dir = mkdtempSync(join(tmpdir(), 'kestrel-bench-uploads-'));
try {
  log('making the files (the bomb is deflated as it is made)');
  const files = [
    { name: 'bomb.pdf', label: 'PDF bomb (1 GB inflated)', data: await pdfBomb(1024 * MB) },
    { name: 'huge.png', label: 'PNG 16000×16000', data: await hugePng() },
  ];
  const db = pgliteDatabase(await openPglite(join(dir, 'data')));
  await migrateDatabase(db);
  const app = await buildApp({
    db,
    logger: false,
    config: {
      logLevel: 'silent',
      housekeepingMs: 0,
      webDist: null,
      jobWorkers: true,
      storage: {
        ...defaultConfig.storage,
        localDir: join(dir, 'documents'),
        spoolDir: join(dir, 'spool'),
      },
    },
  });
  let caseId = 0;
  await db.ownerTransaction(async (tx) => {
    const customer = (await createCustomer(tx, { name: 'Bench' })).id;
    await createProductUser(tx, {
      customerId: customer,
      username: 'bench@b.test',
      roles: ['admin'],
    });
    caseId = (await createCase(tx, { customerId: customer })).id;
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const check = await fetch(`${base}/api/accounts/check-session/`);
  const anonCookie = (check.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const anonCsrf = String(((await check.json()) as { csrf_token: string }).csrf_token);
  const login = await fetch(`${base}/api/accounts/login/`, {
    method: 'POST',
    headers: { cookie: anonCookie, 'x-csrftoken': anonCsrf, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench@b.test', password: 'kestrel-test-password' }),
  });
  const cookie = (login.headers.get('set-cookie') ?? anonCookie).split(';')[0] ?? '';
  const csrf = String(((await login.json()) as { csrf_token: string }).csrf_token);

  const figures = [];
  const outcomes: DecoderOutcome[] = [];
  decoderOutcomes.on('outcome', (_task, outcome) => outcomes.push(outcome));
  for (const f of files) {
    outcomes.length = 0;
    const before = process.memoryUsage.rss();
    let peak = before;
    let healthzMax = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 10);
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const s = performance.now();
        await fetch(`${base}/healthz`).then((r) => r.arrayBuffer());
        healthzMax = Math.max(healthzMax, performance.now() - s);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const { payload, contentType } = multipart([
      { name: 'case', value: String(caseId) },
      { name: 'document_type', value: 'utility-bill' },
      { name: 'file', value: f.data, filename: f.name },
    ]);
    const started = performance.now();
    const res = await fetch(`${base}/api/case-documents/`, {
      method: 'POST',
      headers: { cookie, 'x-csrftoken': csrf, 'content-type': contentType },
      body: payload,
    });
    const requestMs = performance.now() - started;
    const doc = (await res.json()) as { id: number };
    // the thumbnail job: until the page's preview is no longer pending
    let preview = 'pending';
    while (preview === 'pending' && performance.now() - started < 120_000) {
      await new Promise((r) => setTimeout(r, 50));
      const d = (await (
        await fetch(`${base}/api/case-documents/${doc.id}/`, { headers: { cookie } })
      ).json()) as { pages: { preview: string }[] };
      preview = d.pages[0]?.preview ?? 'missing';
    }
    const jobMs = performance.now() - started;
    probing = false;
    await prober;
    clearInterval(sampler);
    await new Promise((r) => setTimeout(r, 500));
    figures.push({
      file: f.label,
      size_kb: Math.round(f.data.length / 1024),
      status: res.status,
      request_ms: Math.round(requestMs),
      preview,
      preview_after_ms: Math.round(jobMs),
      server_rss_mb: { before: mb(before), peak: mb(peak), after: mb(process.memoryUsage.rss()) },
      decoder: outcomes.map((o) => ({
        status: o.status,
        reason: 'reason' in o ? o.reason : null,
        peak_rss_mb: mb(o.peakRssBytes),
      })),
      healthz_max_ms: Math.round(healthzMax),
    });
    log(JSON.stringify(figures.at(-1)));
  }
  send({ type: 'uploads', figures });
  await app.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
