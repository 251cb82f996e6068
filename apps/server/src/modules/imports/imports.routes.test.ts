// @postgres: an all-or-nothing run publishes its progress from a second connection while its one transaction runs
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { defaultConfig } from '../../config.js';
import { openTransaction } from '../../db/driver/tx.js';
import { jobActor } from '../../jobs/service-job.js';
import { multipart } from '../case-documents/test-files.js';
import { cases } from '../cases/cases.table.js';
import { processes } from '../processes/processes.table.js';
import { insertSubject } from '../subjects/subjects.service.js';
import { subjects } from '../subjects/subjects.table.js';
import { failImport, IMPORT_BATCH, RUN_BATCH, reportLines, runImport } from './imports.service.js';
import { importRows, imports } from './imports.table.js';

const MAX_BYTES = 200_000;
let t: TestApp;
let ops: Client;
let admin: Client;
let acme: number;
let other: number;
let processId: number;

/** A name of letters only (the subject schema refuses digits): 1 → 'Ab', 27 → 'Bb'... */
const nameOf = (i: number) =>
  String.fromCharCode(65 + (Math.floor(i / 26) % 26)) +
  String.fromCharCode(97 + (i % 26)) +
  String.fromCharCode(97 + (Math.floor(i / 676) % 26));

/** A CSV of `n` people (emails made from `tag`), with the rows in `bad` broken (1-based). */
function peopleCsv(n: number, tag: string, bad: Record<number, string> = {}): string {
  const lines = ['First name,Surname,Email address,Date of birth'];
  for (let i = 1; i <= n; i += 1) {
    lines.push(
      bad[i] ??
        `${nameOf(i)},Tester,${tag}.${i}@example.com,1990-01-${String((i % 28) + 1).padStart(2, '0')}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function upload(
  client: Client,
  csv: string | Buffer,
  fields: Record<string, string>,
  filename = 'people.csv',
) {
  const { payload, contentType } = multipart([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    {
      name: 'file',
      filename,
      value: typeof csv === 'string' ? Buffer.from(csv) : csv,
      contentType: 'text/csv',
    },
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/ops/imports/',
    headers: { ...client.headers, 'content-type': contentType },
    payload,
  });
}

const post = (client: Client, url: string) =>
  t.app.inject({ method: 'POST', url, headers: client.headers });

async function uploadAndValidate(csv: string, mode = 'valid_rows') {
  const res = await upload(ops, csv, { customer: String(acme), mode });
  expect(res.statusCode, res.body).toBe(201);
  const id = Number(res.json().id);
  const v = await post(ops, `/api/ops/imports/${id}/validate/`);
  expect(v.statusCode, v.body).toBe(200);
  return { id, validated: v.json() };
}

const subjectCount = (email: string) =>
  t.owner(async (tx) => {
    const [r] = await tx
      .select({ n: sql<number>`count(*)::int`, d: sql<number>`count(distinct lower(email))::int` })
      .from(subjects)
      .where(and(eq(subjects.customerId, acme), sql`${subjects.email} like ${`${email}.%`}`));
    return { n: Number(r?.n ?? 0), distinct: Number(r?.d ?? 0) };
  });

/** Started (as the run endpoint does) without its job: the test runs it by hand, with hooks. */
const startByHand = (id: number) =>
  t.owner((tx) => tx.update(imports).set({ state: 'running' }).where(eq(imports.id, id)));

/** A run of import `id` killed halfway through its eighth batch (RUN_BATCH rows each). */
async function killedInEighthBatch(id: number): Promise<void> {
  const killAt = 7 * RUN_BATCH + Math.ceil(RUN_BATCH / 2) + 1;
  await expect(
    runImport(t.app.deps, acme, id, {
      afterRow: (row) => {
        if (row === killAt) throw new Error('killed');
      },
    }),
  ).rejects.toThrow('killed');
}

beforeAll(async () => {
  t = await buildTestApp({
    config: { storage: { ...defaultConfig.storage, maxUploadBytes: MAX_BYTES } },
  });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    await createSubjectUser(tx, { customerId: acme, email: 'subject@acme.test' });
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    processId = (await createProcess(tx, { customerId: acme, requirements: ['knowledge-test'] }))
      .id;
  });
  ops = await login(t.app, 'ops@k.test');
  admin = await login(t.app, 'admin@acme.test');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('/api/ops/imports/', () => {
  it('is operations staff only: customer staff and subjects get 403 on every endpoint, anonymous 401/403', async () => {
    // a real import, so that a refusal is the audience's and not a missing row's
    const { id } = await uploadAndValidate(peopleCsv(2, 'audience'));
    const subject = await login(t.app, 'subject@acme.test');
    for (const who of [admin, subject]) {
      for (const [method, url] of [
        ['GET', '/api/ops/imports/'],
        ['POST', '/api/ops/imports/'],
        ['GET', `/api/ops/imports/${id}/`],
        ['GET', `/api/ops/imports/${id}/preview/`],
        ['PUT', `/api/ops/imports/${id}/mapping/`],
        ['POST', `/api/ops/imports/${id}/validate/`],
        ['GET', `/api/ops/imports/${id}/rows/`],
        ['POST', `/api/ops/imports/${id}/run/`],
        ['GET', `/api/ops/imports/${id}/report/`],
      ] as const) {
        const res = await t.app.inject({
          method,
          url,
          headers: who.headers,
          ...(method === 'PUT' ? { payload: { mapping: {} } } : {}),
        });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
      }
      const res = await upload(who, peopleCsv(2, 'staff'), { customer: String(acme) });
      expect(res.statusCode).toBe(403);
    }
    // nothing changed: still validated, nothing run
    const me = await t.app.inject({
      method: 'GET',
      url: `/api/ops/imports/${id}/`,
      headers: ops.headers,
    });
    expect(me.json()).toMatchObject({ state: 'validated', imported_rows: 0 });
    const anon = await t.app.inject({ method: 'GET', url: '/api/ops/imports/' });
    expect([401, 403]).toContain(anon.statusCode);
  });

  it('reads the file, guesses the mapping from the headers and previews the first rows', async () => {
    const res = await upload(ops, peopleCsv(12, 'preview'), { customer: String(acme) });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      customer_id: acme,
      customer_name: 'Acme',
      state: 'uploaded',
      mode: 'all_or_nothing',
      total_rows: 12,
      headers: ['First name', 'Surname', 'Email address', 'Date of birth'],
      mapping: {
        first_name: 'First name',
        last_name: 'Surname',
        email: 'Email address',
        dob: 'Date of birth',
      },
    });
    const preview = await t.app.inject({
      method: 'GET',
      url: `/api/ops/imports/${body.id}/preview/`,
      headers: ops.headers,
    });
    expect(preview.statusCode).toBe(200);
    const rows = preview.json().rows;
    expect(rows).toHaveLength(10);
    expect(rows[0]).toEqual({
      row_number: 2,
      cells: [nameOf(1), 'Tester', 'preview.1@example.com', '1990-01-02'],
    });
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/ops/imports/',
      headers: ops.headers,
    });
    expect(list.json().results.map((r: { id: number }) => r.id)).toContain(body.id);
  });

  it('reads an XLSX file (first worksheet) the same way', async () => {
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('People');
    ws.addRow(['First name', 'Last name', 'Email']);
    ws.addRow(['Xena', 'Lopez', 'xena.lopez@example.com']);
    ws.addRow(['Yuri', 'Lopez', 'yuri.lopez@example.com']);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const res = await upload(ops, buf, { customer: String(acme) }, 'people.xlsx');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      total_rows: 2,
      mapping: { first_name: 'First name', last_name: 'Last name', email: 'Email' },
    });
  });

  it("refuses another kind of file, an unknown customer or another customer's process", async () => {
    const csv = peopleCsv(1, 'refused');
    const txt = await upload(ops, csv, { customer: String(acme) }, 'people.txt');
    expect(txt.statusCode).toBe(400);
    expect(txt.json()).toHaveProperty('file');
    const none = await upload(ops, csv, { customer: '999999' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toHaveProperty('customer');
    const proc = await upload(ops, csv, { customer: String(other), process: String(processId) });
    expect(proc.statusCode).toBe(400);
    expect(proc.json()).toHaveProperty('process');
  });

  it('refuses a file over the size limit while it streams (413), keeping nothing', async () => {
    const before = await t.owner(async (tx) => (await tx.select().from(imports)).length);
    const big = peopleCsv(Math.ceil(MAX_BYTES / 40) + 500, 'big');
    expect(big.length).toBeGreaterThan(MAX_BYTES);
    const res = await upload(ops, big, { customer: String(acme) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toHaveProperty('file');
    const after = await t.owner(async (tx) => (await tx.select().from(imports)).length);
    expect(after).toBe(before);
  });

  it('validates every row with the subject schema: row number and field', async () => {
    const csv = peopleCsv(6, 'val', {
      2: 'Ann,,val.2@example.com,1990-01-01',
      4: 'Bea,Tester,not-an-email,1990-01-01',
      5: 'Cal,Tester,val.1@example.com,31/12/1990',
    });
    const { id, validated } = await uploadAndValidate(csv, 'all_or_nothing');
    expect(validated).toMatchObject({ state: 'validated', valid_rows: 3, invalid_rows: 3 });
    const rows = await t.app.inject({
      method: 'GET',
      url: `/api/ops/imports/${id}/rows/?invalid=true`,
      headers: ops.headers,
    });
    const byRow = Object.fromEntries(
      rows
        .json()
        .results.map((r: { row_number: number; errors: Record<string, string[]> }) => [
          r.row_number,
          Object.keys(r.errors).sort(),
        ]),
    );
    // the file's row numbers: the header is row 1
    expect(byRow).toEqual({ 3: ['last_name'], 5: ['email'], 6: ['dob'] });
    // all or nothing: refused while a row is invalid
    const run = await post(ops, `/api/ops/imports/${id}/run/`);
    expect(run.statusCode).toBe(400);
    expect(run.json()).toHaveProperty('mode');
  });

  it('imports the valid rows only when chosen, opens a case each, and reports every row', async () => {
    const csv = peopleCsv(5, 'valid', { 3: 'Dee,,valid.3@example.com,' });
    const res = await upload(ops, csv, {
      customer: String(acme),
      process: String(processId),
      mode: 'valid_rows',
    });
    const id = Number(res.json().id);
    await post(ops, `/api/ops/imports/${id}/validate/`);
    const run = await post(ops, `/api/ops/imports/${id}/run/`);
    expect(run.statusCode, run.body).toBe(202);
    expect(run.json().state).toBe('running');
    await t.settle();
    const done = await t.app.inject({
      method: 'GET',
      url: `/api/ops/imports/${id}/`,
      headers: ops.headers,
    });
    expect(done.json()).toMatchObject({ state: 'completed', imported_rows: 4, invalid_rows: 1 });
    expect(await subjectCount('valid')).toEqual({ n: 4, distinct: 4 });
    const opened = await t.owner(async (tx) =>
      tx
        .select({ id: cases.id })
        .from(cases)
        .innerJoin(
          importRows,
          and(eq(importRows.customerId, cases.customerId), eq(importRows.caseId, cases.id)),
        )
        .where(eq(importRows.importId, id)),
    );
    expect(opened).toHaveLength(4);
    const report = await t.app.inject({
      method: 'GET',
      url: `/api/ops/imports/${id}/report/`,
      headers: ops.headers,
    });
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-type']).toContain('text/csv');
    const lines = report.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'row,First name,Surname,Email address,Date of birth,outcome,subject_id,errors',
    );
    expect(lines).toHaveLength(6);
    expect(lines[3]).toMatch(/^4,Dee,,valid\.3@example\.com,,invalid,,last_name: /);
    expect(lines[1]).toMatch(
      new RegExp(`^2,${nameOf(1)},Tester,valid.1@example.com,1990-01-02,imported,\\d+,$`),
    );
    // run once only
    expect((await post(ops, `/api/ops/imports/${id}/run/`)).statusCode).toBe(409);
  });

  it('runs 1,000 rows through the job queue, other requests answering meanwhile', async () => {
    const bad = {
      10: 'Ann,,q.10@example.com,',
      500: ',Tester,q.500@example.com,',
      999: 'Bo,Tester,nope,',
    };
    const { id, validated } = await uploadAndValidate(peopleCsv(1_000, 'queued', bad));
    expect(validated).toMatchObject({ valid_rows: 997, invalid_rows: 3 });
    const run = await post(ops, `/api/ops/imports/${id}/run/`);
    expect(run.statusCode, run.body).toBe(202);
    // the job queue's workers run it; while it runs, the server answers (the e2e's check-session
    // hung here) and shows its progress
    const started = Date.now();
    const me = await t.app.inject({
      method: 'GET',
      url: `/api/ops/imports/${id}/`,
      headers: ops.headers,
    });
    expect(me.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(10_000);
    // polled until done (a slow machine takes well over the queue's 15 s settle)
    const deadline = Date.now() + 100_000;
    let done = me.json();
    while (done.state === 'running' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      done = (
        await t.app.inject({ method: 'GET', url: `/api/ops/imports/${id}/`, headers: ops.headers })
      ).json();
    }
    expect(done).toMatchObject({ state: 'completed', imported_rows: 997, invalid_rows: 3 });
    expect(await subjectCount('queued')).toEqual({ n: 997, distinct: 997 });
  }, 150_000);

  it('all or nothing: a run killed mid-way leaves nothing imported; its re-run makes no duplicate', async () => {
    const n = 10 * RUN_BATCH;
    const { id } = await uploadAndValidate(peopleCsv(n, 'atomic'), 'all_or_nothing');
    await startByHand(id);
    await killedInEighthBatch(id);
    expect(await subjectCount('atomic')).toEqual({ n: 0, distinct: 0 });
    const mid = await t.owner(
      async (tx) => (await tx.select().from(imports).where(eq(imports.id, id)))[0],
    );
    // still running (its retry goes on); on PostgreSQL importedRows is the killed run's progress
    expect(mid).toMatchObject({ state: 'running' });
    // the job marks it failed: nothing imported, shown so
    await failImport(t.app.deps, acme, id, 'killed');
    const failed = await t.app.inject({
      method: 'GET',
      url: `/api/ops/imports/${id}/`,
      headers: ops.headers,
    });
    expect(failed.json()).toMatchObject({ state: 'failed', imported_rows: 0, error: 'killed' });
    // dies between batches too
    await expect(
      runImport(t.app.deps, acme, id, {
        beforeBatch: (b) => {
          if (b === 1) throw new Error('killed again');
        },
      }),
    ).rejects.toThrow('killed again');
    expect(await subjectCount('atomic')).toEqual({ n: 0, distinct: 0 });
    await runImport(t.app.deps, acme, id);
    expect(await subjectCount('atomic')).toEqual({ n, distinct: n });
    // once more: nothing left to do, nothing made
    await runImport(t.app.deps, acme, id);
    expect(await subjectCount('atomic')).toEqual({ n, distinct: n });
    const done = await t.app.inject({
      method: 'GET',
      url: `/api/ops/imports/${id}/`,
      headers: ops.headers,
    });
    expect(done.json()).toMatchObject({ state: 'completed', imported_rows: n, invalid_rows: 0 });
    const outcomes = await t.owner(async (tx) =>
      tx
        .select({ o: importRows.outcome, n: sql<number>`count(*)::int` })
        .from(importRows)
        .where(eq(importRows.importId, id))
        .groupBy(importRows.outcome),
    );
    expect(outcomes).toEqual([{ o: 'imported', n }]);
  }, 120_000);

  // PostgreSQL only: the embedded database's one connection cannot be read while the run's one
  // transaction is open
  it.skipIf(!process.env.DATABASE_URL)(
    "all or nothing: the run's progress shows while its one transaction runs, none of its subjects",
    async () => {
      const n = 3 * RUN_BATCH;
      const { id } = await uploadAndValidate(peopleCsv(n, 'progress'), 'all_or_nothing');
      await startByHand(id);
      const seen: { imported: number; subjects: number }[] = [];
      await runImport(t.app.deps, acme, id, {
        beforeBatch: async (b) => {
          if (b !== 2) return;
          // read from outside the run's transaction, as the screen's poll does
          await openTransaction.exit(async () => {
            const [row] = await t.owner((tx) =>
              tx.select().from(imports).where(eq(imports.id, id)),
            );
            const subjectsNow = (await subjectCount('progress')).n;
            seen.push({ imported: row?.importedRows ?? -1, subjects: subjectsNow });
          });
        },
      });
      expect(seen).toEqual([{ imported: 2 * RUN_BATCH, subjects: 0 }]);
      expect(await subjectCount('progress')).toEqual({ n, distinct: n });
    },
    60_000,
  );

  it('valid rows only: a run killed mid-way keeps whole batches only; its re-run makes no duplicate', async () => {
    const n = 10 * RUN_BATCH;
    const { id } = await uploadAndValidate(peopleCsv(n, 'batched'), 'valid_rows');
    await startByHand(id);
    const seven = 7 * RUN_BATCH;
    await killedInEighthBatch(id);
    expect(await subjectCount('batched')).toEqual({ n: seven, distinct: seven });
    await runImport(t.app.deps, acme, id);
    await runImport(t.app.deps, acme, id);
    expect(await subjectCount('batched')).toEqual({ n, distinct: n });
    const done = await t.app.inject({
      method: 'GET',
      url: `/api/ops/imports/${id}/`,
      headers: ops.headers,
    });
    expect(done.json()).toMatchObject({ state: 'completed', imported_rows: n, invalid_rows: 0 });
  }, 120_000);

  it('all or nothing: a row refused in the run after its checks (an email taken meanwhile) rolls the whole import back', async () => {
    const n = 3 * RUN_BATCH;
    const { id } = await uploadAndValidate(peopleCsv(n, 'clash'), 'all_or_nothing');
    await startByHand(id);
    // the run has checked every row's email; then the customer gets a subject with the email of
    // a row of the last batch, before that row is imported
    await runImport(t.app.deps, acme, id, {
      afterStart: () =>
        t.owner(async (tx) => {
          await insertSubject(tx, jobActor(acme), acme, {
            first_name: 'Late',
            last_name: 'Comer',
            email: `clash.${n - 1}@example.com`,
          });
        }),
    });
    // the batches before that row are not kept: only the late comer's subject
    expect(await subjectCount('clash')).toEqual({ n: 1, distinct: 1 });
    const me = await t.app.inject({
      method: 'GET',
      url: `/api/ops/imports/${id}/`,
      headers: ops.headers,
    });
    expect(me.json()).toMatchObject({
      state: 'failed',
      imported_rows: 0,
      valid_rows: n - 1,
      invalid_rows: 1,
      error: `Row ${n} could not be imported (see the rows): nothing was imported. Correct the file and import it again, or import the valid rows only.`,
    });
    const rows = await t.app.inject({
      method: 'GET',
      url: `/api/ops/imports/${id}/rows/?invalid=true`,
      headers: ops.headers,
    });
    expect(
      rows
        .json()
        .results.map((r: { row_number: number; errors: Record<string, string[]> }) => [
          r.row_number,
          r.errors,
        ]),
    ).toEqual([[n, { email: ['A subject with this email already exists.'] }]]);
    const outcomes = await t.owner(async (tx) =>
      tx
        .select({ o: importRows.outcome, n: sql<number>`count(*)::int` })
        .from(importRows)
        .where(eq(importRows.importId, id))
        .groupBy(importRows.outcome)
        .orderBy(importRows.outcome),
    );
    expect(outcomes).toEqual([
      { o: 'invalid', n: 1 },
      { o: 'valid', n: n - 1 },
    ]);
    // run again: refused at its start, still nothing imported
    expect((await post(ops, `/api/ops/imports/${id}/run/`)).statusCode).toBe(202);
    await runImport(t.app.deps, acme, id);
    expect(await subjectCount('clash')).toEqual({ n: 1, distinct: 1 });
  }, 60_000);

  it('all or nothing: its process gone at run time, no subject and no case is kept', async () => {
    const gone = await t.owner(
      async (tx) =>
        (await createProcess(tx, { customerId: acme, requirements: ['knowledge-test'] })).id,
    );
    const n = 2 * RUN_BATCH;
    const res = await upload(ops, peopleCsv(n, 'gone'), {
      customer: String(acme),
      process: String(gone),
      mode: 'all_or_nothing',
    });
    const id = Number(res.json().id);
    expect((await post(ops, `/api/ops/imports/${id}/validate/`)).json()).toMatchObject({
      valid_rows: n,
    });
    await startByHand(id);
    await runImport(t.app.deps, acme, id, {
      afterStart: () =>
        t.owner(async (tx) => {
          await tx.update(processes).set({ isActive: false }).where(eq(processes.id, gone));
        }),
    });
    expect(await subjectCount('gone')).toEqual({ n: 0, distinct: 0 });
    const opened = await t.owner((tx) =>
      tx.select({ id: cases.id }).from(cases).where(eq(cases.processId, gone)),
    );
    expect(opened).toEqual([]);
    const me = (
      await t.app.inject({ method: 'GET', url: `/api/ops/imports/${id}/`, headers: ops.headers })
    ).json();
    expect(me).toMatchObject({ state: 'failed', imported_rows: 0, invalid_rows: 1 });
    expect(me.error).toMatch(/^Row 2 could not be imported .*nothing was imported/);
  }, 60_000);

  it('valid rows only: a row refused at run time is skipped and reported, leaving no subject of it', async () => {
    const gone = await t.owner(
      async (tx) =>
        (await createProcess(tx, { customerId: acme, requirements: ['knowledge-test'] })).id,
    );
    const n = RUN_BATCH + 5;
    const res = await upload(ops, peopleCsv(n, 'skip'), {
      customer: String(acme),
      process: String(gone),
      mode: 'valid_rows',
    });
    const id = Number(res.json().id);
    await post(ops, `/api/ops/imports/${id}/validate/`);
    await startByHand(id);
    // the first batch is imported with its cases; then the process is deactivated
    await runImport(t.app.deps, acme, id, {
      beforeBatch: async (b) => {
        if (b !== 1) return;
        await t.owner(async (tx) => {
          await tx.update(processes).set({ isActive: false }).where(eq(processes.id, gone));
        });
      },
    });
    const me = (
      await t.app.inject({ method: 'GET', url: `/api/ops/imports/${id}/`, headers: ops.headers })
    ).json();
    expect(me).toMatchObject({ state: 'completed', imported_rows: RUN_BATCH, invalid_rows: 5 });
    // a refused row's subject is not kept without its case
    expect(await subjectCount('skip')).toEqual({ n: RUN_BATCH, distinct: RUN_BATCH });
    const opened = await t.owner((tx) =>
      tx.select({ id: cases.id }).from(cases).where(eq(cases.processId, gone)),
    );
    expect(opened).toHaveLength(RUN_BATCH);
    const rows = await t.app.inject({
      method: 'GET',
      url: `/api/ops/imports/${id}/rows/?invalid=true`,
      headers: ops.headers,
    });
    expect(rows.json().results).toHaveLength(5);
    expect(rows.json().results[0]).toMatchObject({
      row_number: RUN_BATCH + 2,
      outcome: 'invalid',
      errors: { process: ['Inactive process.'] },
      subject_id: null,
    });
  }, 60_000);

  it('all or nothing: a row refused at run time (its email taken since validation) imports nothing', async () => {
    const n = RUN_BATCH + 5;
    const { id, validated } = await uploadAndValidate(peopleCsv(n, 'late'), 'all_or_nothing');
    expect(validated).toMatchObject({ valid_rows: n, invalid_rows: 0 });
    // after validation, the customer gets a subject with the email of a row of the last batch
    await t.owner((tx) =>
      insertSubject(tx, jobActor(acme), acme, {
        first_name: 'Late',
        last_name: 'Comer',
        email: `LATE.${n}@example.com`,
      }),
    );
    const run = await post(ops, `/api/ops/imports/${id}/run/`);
    expect(run.statusCode).toBe(202);
    await runImport(t.app.deps, acme, id);
    expect(await subjectCount('late')).toEqual({ n: 1, distinct: 1 });
    const me = await t.app.inject({
      method: 'GET',
      url: `/api/ops/imports/${id}/`,
      headers: ops.headers,
    });
    expect(me.json()).toMatchObject({
      state: 'failed',
      imported_rows: 0,
      valid_rows: n - 1,
      invalid_rows: 1,
      error:
        '1 row is no longer valid (see the rows): nothing was imported. Correct the file and import it again, or import the valid rows only.',
    });
    const rows = await t.app.inject({
      method: 'GET',
      url: `/api/ops/imports/${id}/rows/?invalid=true`,
      headers: ops.headers,
    });
    expect(
      rows
        .json()
        .results.map((r: { row_number: number; errors: Record<string, string[]> }) => [
          r.row_number,
          r.errors,
        ]),
    ).toEqual([[n + 1, { email: ['A subject with this email already exists.'] }]]);
    // run again: still nothing imported
    expect((await post(ops, `/api/ops/imports/${id}/run/`)).statusCode).toBe(202);
    await runImport(t.app.deps, acme, id);
    expect(await subjectCount('late')).toEqual({ n: 1, distinct: 1 });
  }, 60_000);

  it('2,500 rows go through in bounded batches: the run RUN_BATCH rows at a time, each imported once, the report IMPORT_BATCH lines a chunk', async () => {
    const n = 2_500;
    const { id, validated } = await uploadAndValidate(peopleCsv(n, 'bounded'), 'all_or_nothing');
    expect(validated).toMatchObject({ total_rows: n, valid_rows: n, invalid_rows: 0 });
    await startByHand(id);
    // the rows each batch imported, by batch: no batch holds more than RUN_BATCH rows
    const perBatch: number[][] = [];
    await runImport(t.app.deps, acme, id, {
      beforeBatch: (b) => {
        perBatch[b] = [];
      },
      afterRow: (row) => {
        perBatch.at(-1)?.push(row);
      },
    });
    const batches = Math.ceil(n / RUN_BATCH);
    // every batch full but the last, then one empty read that ends the run
    expect(perBatch).toHaveLength(batches + 1);
    expect(Math.max(...perBatch.map((b) => b.length))).toBe(RUN_BATCH);
    expect(perBatch.at(-1)).toEqual([]);
    // every row once, in the file's order (row 1 is the header)
    expect(perBatch.flat()).toEqual(Array.from({ length: n }, (_, i) => i + 2));
    expect(await subjectCount('bounded')).toEqual({ n, distinct: n });
    // a re-run (the job's retry) finds nothing left and makes no duplicate
    await runImport(t.app.deps, acme, id);
    expect(await subjectCount('bounded')).toEqual({ n, distinct: n });
    const [done] = await t.owner((tx) => tx.select().from(imports).where(eq(imports.id, id)));
    expect(done).toMatchObject({ state: 'completed', importedRows: n, invalidRows: 0 });
    // the report is written a batch at a time, never whole: a header, then IMPORT_BATCH rows a chunk
    const row = done ?? expect.unreachable();
    const chunks: number[] = [];
    for await (const chunk of reportLines(row, (fn) => t.owner(fn))) {
      chunks.push(chunk.split('\r\n').length - 1);
    }
    expect(chunks).toEqual([1, ...Array(n / IMPORT_BATCH).fill(IMPORT_BATCH)]);
  }, 300_000);

  it('an email already held by the customer, or repeated in the file, is reported on its row', async () => {
    const csv = [
      'First name,Last name,Email',
      'Ann,Held,atomic.1@example.com',
      'Bob,Twice,twice@example.com',
      'Bob,Again,TWICE@example.com',
    ].join('\n');
    const { id, validated } = await uploadAndValidate(csv);
    expect(validated).toMatchObject({ valid_rows: 1, invalid_rows: 2 });
    const rows = await t.app.inject({
      method: 'GET',
      url: `/api/ops/imports/${id}/rows/?invalid=true`,
      headers: ops.headers,
    });
    expect(
      rows
        .json()
        .results.map((r: { row_number: number; errors: Record<string, string[]> }) => [
          r.row_number,
          Object.keys(r.errors),
        ]),
    ).toEqual([
      [2, ['email']],
      [4, ['email']],
    ]);
  });
});
