import {
  IMPORT_FIELDS,
  type ImportField,
  type ImportMode,
  type ImportOut,
  type ImportRowOut,
  type ImportSettings,
  type ImportState,
  type SubjectCreate,
  subjectCreate,
} from '@kestrel/domain';
import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { AppDeps } from '../../app-deps.js';
import type { Tx } from '../../db/connection.js';
import { openTransaction } from '../../db/driver/tx.js';
import { refreshStatistics } from '../../db/statistics.js';
import { jobActor } from '../../jobs/service-job.js';
import type { Actor } from '../../platform/context.js';
import {
  ConflictError,
  fieldErrorsOf,
  NotFoundError,
  ValidationError,
} from '../../platform/errors.js';
import { runInTenant, type ServiceContext } from '../../platform/service-context.js';
import { openCase } from '../cases/commands/open-case.js';
import type { CaseMailDeps } from '../cases/commands/subject-email.js';
import { customers } from '../customers/customers.table.js';
import { processes } from '../processes/processes.table.js';
import { insertSubject } from '../subjects/subjects.service.js';
import { subjects } from '../subjects/subjects.table.js';
import { readSheet, type SheetKind } from './import-file.js';
import { type ImportRowErrors, importRows, imports } from './imports.table.js';

/** Rows written, validated or imported per statement / transaction. */
export const IMPORT_BATCH = 500;
/**
 * Rows imported per transaction: short, so that on the embedded database (one connection) other
 * requests wait little behind a batch.
 */
export const RUN_BATCH = 25;
/** Rows shown in the mapping's preview. */
export const PREVIEW_ROWS = 10;

type ImportRow = typeof imports.$inferSelect;

const ALIASES: Record<ImportField, string[]> = {
  first_name: ['firstname', 'forename', 'forenames', 'givenname', 'first'],
  middlename: ['middlename', 'middlenames', 'middle'],
  last_name: ['lastname', 'surname', 'familyname', 'last'],
  email: ['email', 'emailaddress', 'mail'],
  dob: ['dob', 'dateofbirth', 'birthdate', 'birthday'],
  phone_number: ['phonenumber', 'phone', 'mobile', 'mobilenumber', 'telephone', 'tel'],
};

/** The mapping guessed from the headers' names (`First name`, `Surname`, `E-mail`, ...). */
export function guessMapping(headers: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const norm = (h: string) => h.toLowerCase().replace(/[^a-z]/g, '');
  for (const field of IMPORT_FIELDS) {
    const header = headers.find((h) => ALIASES[field].includes(norm(h)));
    if (header !== undefined) out[field] = header;
  }
  return out;
}

export function presentImport(row: ImportRow, customerName: string): ImportOut {
  return {
    id: row.id,
    customer_id: row.customerId,
    customer_name: customerName,
    file_name: row.fileName,
    process_id: row.processId,
    created_by_name: row.createdByName,
    mode: row.mode as ImportMode,
    state: row.state as ImportState,
    headers: row.headers,
    mapping: row.mapping,
    total_rows: row.totalRows,
    valid_rows: row.validRows,
    invalid_rows: row.invalidRows,
    imported_rows: row.importedRows,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
    error: row.error,
  };
}

/** Imports, newest first, each with its customer's name. */
export async function listImports(tx: Tx, limit: number, offset: number) {
  const rows = await tx
    .select({ i: imports, name: customers.name, total: sql<number>`count(*) over ()` })
    .from(imports)
    .innerJoin(customers, eq(customers.id, imports.customerId))
    .orderBy(desc(imports.createdAt), desc(imports.id))
    .limit(limit)
    .offset(offset);
  return {
    count: Number(rows[0]?.total ?? 0),
    results: rows.map((r) => presentImport(r.i, r.name)),
  };
}

/** The import `id` (any customer's: the ops context), or 404. */
export async function getImport(tx: Tx, id: number, lock = false): Promise<ImportRow> {
  const q = tx.select().from(imports).where(eq(imports.id, id)).limit(1);
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new NotFoundError();
  return row;
}

export async function importOut(tx: Tx, row: ImportRow): Promise<ImportOut> {
  const [c] = await tx
    .select({ name: customers.name })
    .from(customers)
    .where(eq(customers.id, row.customerId));
  return presentImport(row, c?.name ?? '');
}

export interface NewImport {
  customerId: number;
  processId: number | null;
  mode: ImportMode;
  fileName: string;
  path: string;
  kind: SheetKind;
}

async function checkProcess(tx: Tx, customerId: number, processId: number | null) {
  if (processId === null) return;
  const [p] = await tx
    .select({ id: processes.id, active: processes.isActive })
    .from(processes)
    .where(and(eq(processes.customerId, customerId), eq(processes.id, processId)));
  if (!p) throw ValidationError.doesNotExist('process', processId);
  if (!p.active) throw ValidationError.of('process', 'Inactive process.');
}

/**
 * Records an upload: the import, then the file's rows as they stream from the parser, written
 * IMPORT_BATCH at a time (the first row is the header). The mapping is guessed from the headers.
 */
export async function createImport(tx: Tx, actor: Actor, input: NewImport): Promise<ImportRow> {
  const [customer] = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.id, input.customerId));
  if (!customer) throw ValidationError.doesNotExist('customer', input.customerId);
  await checkProcess(tx, input.customerId, input.processId);
  const [created] = await tx
    .insert(imports)
    .values({
      customerId: input.customerId,
      createdById: actor.id,
      createdByName: actor.name,
      fileName: input.fileName.slice(0, 255),
      processId: input.processId,
      mode: input.mode,
    })
    .returning();
  if (!created) throw new Error('import not inserted');
  let headers: string[] | null = null;
  let batch: (typeof importRows.$inferInsert)[] = [];
  let total = 0;
  const flush = async () => {
    if (batch.length > 0) await tx.insert(importRows).values(batch);
    batch = [];
  };
  try {
    for await (const row of readSheet(input.path, input.kind)) {
      if (headers === null) {
        headers = row.cells;
        continue;
      }
      total += 1;
      batch.push({
        customerId: input.customerId,
        importId: created.id,
        rowNumber: row.rowNumber,
        cells: row.cells,
      });
      if (batch.length >= IMPORT_BATCH) await flush();
    }
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    throw ValidationError.of(
      'file',
      `The file could not be read: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  await flush();
  if (headers === null || total === 0) {
    throw ValidationError.of('file', 'The file has no rows under its header row.');
  }
  const [updated] = await tx
    .update(imports)
    .set({ headers, mapping: guessMapping(headers), totalRows: total })
    .where(and(eq(imports.customerId, created.customerId), eq(imports.id, created.id)))
    .returning();
  if (!updated) throw new Error('import not updated');
  return updated;
}

/** The first rows as read (the mapping's preview). */
export async function previewRows(tx: Tx, row: ImportRow) {
  return tx
    .select({ row_number: importRows.rowNumber, cells: importRows.cells })
    .from(importRows)
    .where(and(eq(importRows.customerId, row.customerId), eq(importRows.importId, row.id)))
    .orderBy(asc(importRows.rowNumber))
    .limit(PREVIEW_ROWS);
}

/** Saves the mapping (headers must be the file's), mode and process; validation starts again. */
export async function saveSettings(tx: Tx, row: ImportRow, s: ImportSettings): Promise<ImportRow> {
  if (row.state !== 'uploaded' && row.state !== 'validated') {
    throw new ConflictError('This import has already run.');
  }
  const mapping: Record<string, string> = {};
  for (const [field, header] of Object.entries(s.mapping)) {
    if (header === undefined || header === '') continue;
    if (!row.headers.includes(header)) {
      throw ValidationError.of(`mapping.${field}`, `The file has no column '${header}'.`);
    }
    mapping[field] = header;
  }
  const processId = s.process_id === undefined ? row.processId : s.process_id;
  await checkProcess(tx, row.customerId, processId);
  const [updated] = await tx
    .update(imports)
    .set({ mapping, mode: s.mode ?? row.mode, processId, state: 'uploaded' })
    .where(and(eq(imports.customerId, row.customerId), eq(imports.id, row.id)))
    .returning();
  if (!updated) throw new Error('import not updated');
  return updated;
}

/** A row's cells as POST /api/subjects/'s body under the mapping (empty optional cells left out). */
export function rowBody(
  headers: readonly string[],
  mapping: Record<string, string>,
  cells: readonly string[],
): Record<string, string> {
  const body: Record<string, string> = {};
  for (const field of IMPORT_FIELDS) {
    const header = mapping[field];
    if (header === undefined) continue;
    const value = (cells[headers.indexOf(header)] ?? '').trim();
    const required = field === 'first_name' || field === 'last_name' || field === 'email';
    if (value === '' && !required) continue;
    body[field] = value;
  }
  return body;
}

/** The row's body checked by the subject schema: the parsed body, or errors by field. */
export function checkRow(
  body: Record<string, string>,
): { ok: true; data: SubjectCreate } | { ok: false; errors: ImportRowErrors } {
  const parsed = subjectCreate.safeParse(body);
  if (parsed.success) return { ok: true, data: parsed.data };
  return {
    ok: false,
    errors: fieldErrorsOf(
      parsed.error.issues.map((i) => ({ key: i.path.join('.'), message: i.message })),
    ),
  };
}

const EMAIL_IN_FILE = 'This email is on an earlier row of the file.';
const EMAIL_HELD = 'A subject with this email already exists.';

/**
 * Validates every row with the subject schema (POST /api/subjects/'s), a batch at a time: per-row
 * errors by field; an email already held by the customer, or repeated in the file, is an error.
 */
export async function validateImport(tx: Tx, row: ImportRow): Promise<ImportRow> {
  if (row.state !== 'uploaded' && row.state !== 'validated') {
    throw new ConflictError('This import has already run.');
  }
  for (const f of ['first_name', 'last_name', 'email'] as const) {
    if (row.mapping[f] === undefined) {
      throw ValidationError.of(`mapping.${f}`, 'Choose the column for this field.');
    }
  }
  const seen = new Set<string>();
  let after = 0;
  let valid = 0;
  let invalid = 0;
  for (;;) {
    const batch = await tx
      .select({ n: importRows.rowNumber, cells: importRows.cells })
      .from(importRows)
      .where(
        and(
          eq(importRows.customerId, row.customerId),
          eq(importRows.importId, row.id),
          gt(importRows.rowNumber, after),
        ),
      )
      .orderBy(asc(importRows.rowNumber))
      .limit(IMPORT_BATCH);
    if (batch.length === 0) break;
    after = batch[batch.length - 1]?.n ?? after;
    const checked = batch.map((r) => ({
      n: r.n,
      ...checkRow(rowBody(row.headers, row.mapping, r.cells)),
    }));
    const emails = checked.flatMap((c) => (c.ok ? [c.data.email.toLowerCase()] : []));
    const held = new Set(
      emails.length === 0
        ? []
        : (
            await tx
              .select({ e: subjects.searchEmail })
              .from(subjects)
              .where(
                and(eq(subjects.customerId, row.customerId), inArray(subjects.searchEmail, emails)),
              )
          ).map((s) => s.e),
    );
    const results = checked.map((c) => {
      let errors: ImportRowErrors | null = c.ok ? null : c.errors;
      if (c.ok) {
        const email = c.data.email.toLowerCase();
        if (held.has(email)) errors = { email: [EMAIL_HELD] };
        else if (seen.has(email)) errors = { email: [EMAIL_IN_FILE] };
        seen.add(email);
      }
      if (errors) invalid += 1;
      else valid += 1;
      return { n: c.n, errors, outcome: errors ? 'invalid' : 'valid' };
    });
    await tx.execute(sql`
      update import_rows r set errors = v.errors, outcome = v.outcome
      from jsonb_to_recordset(${JSON.stringify(results)}::jsonb)
        as v(n integer, errors jsonb, outcome text)
      where r.customer_id = ${row.customerId} and r.import_id = ${row.id} and r.row_number = v.n`);
  }
  const [updated] = await tx
    .update(imports)
    .set({ state: 'validated', validRows: valid, invalidRows: invalid })
    .where(and(eq(imports.customerId, row.customerId), eq(imports.id, row.id)))
    .returning();
  if (!updated) throw new Error('import not updated');
  return updated;
}

/** Checks an import may start: validated; all or nothing needs every row valid. */
export function checkStart(row: ImportRow): void {
  if (row.state !== 'validated') {
    throw new ConflictError(
      row.state === 'uploaded' ? 'Validate the import first.' : 'This import has already run.',
    );
  }
  if (row.mode === 'all_or_nothing' && row.invalidRows > 0) {
    throw ValidationError.of(
      'mode',
      `${row.invalidRows} rows are invalid: correct the file, or import the valid rows only.`,
    );
  }
  if (row.validRows === 0) throw ValidationError.of('non_field_errors', 'No row is valid.');
}

export interface RunHooks {
  /** Called once the run has started and checked its rows, before any row is imported (tests). */
  afterStart?: () => Promise<void>;
  /**
   * Called before each batch (tests: a process dying mid-run): between the batches'
   * transactions, or inside the one transaction of an all-or-nothing run.
   */
  beforeBatch?: (batch: number) => void | Promise<void>;
  /** Called after each row's subject is made, inside its batch's transaction (tests). */
  afterRow?: (rowNumber: number) => void;
}

/** A row refused while an all-or-nothing import runs: the whole import rolls back. */
class RowRefused extends Error {
  constructor(
    readonly rowNumber: number,
    readonly errors: ImportRowErrors,
  ) {
    super(`Row ${rowNumber} could not be imported.`);
  }
}

const NOTHING_IMPORTED =
  'nothing was imported. Correct the file and import it again, or import the valid rows only.';

/**
 * Runs import `importId` of `customerId` in the customer's tenant (as the system), RUN_BATCH
 * valid rows at a time; each row's subject (and case) is made with its outcome, so a row is
 * imported once only (the import id and row number are the idempotency key).
 *
 * All or nothing: before anything is imported every valid row's email is checked again (one taken
 * since validation fails the run, its rows reported); then every batch runs in ONE transaction,
 * so a row refused while it runs (an email taken meanwhile, its process gone) or a process killed
 * mid-run rolls the whole import back: nothing is kept, the refused row is reported and the
 * import fails; a killed run's retry starts again from nothing and makes no duplicate. On
 * PostgreSQL the progress is published after each batch from a second connection; on the
 * embedded database (one connection) it shows at the end.
 *
 * Valid rows only: each batch is its own transaction (short: on the embedded database other
 * requests wait little behind one), each row in a savepoint, so a row refused at run time is
 * skipped and reported with nothing of it kept, and a run killed mid-way keeps whole batches
 * only: its re-run goes on from there, making no duplicate.
 */
export async function runImport(
  deps: AppDeps,
  customerId: number,
  importId: number,
  hooks: RunHooks = {},
): Promise<void> {
  const actor = jobActor(customerId);
  const where = and(eq(imports.customerId, customerId), eq(imports.id, importId));
  const mail = { publicUrl: deps.config.publicUrl };
  const start = await runInTenant(deps, actor, async ({ tx, clock }) => {
    const [row] = await tx.select().from(imports).where(where).for('update');
    // only a started run (or a failed one, run again) goes on; the rows say what is left
    if (!row || (row.state !== 'running' && row.state !== 'failed')) return null;
    if (row.mode === 'all_or_nothing') {
      // a row no longer valid (its email taken since validation) fails the run with nothing
      // imported, however often it is run again
      const taken = await markHeldSinceValidation(tx, row);
      const invalid = row.invalidRows + taken;
      if (invalid > 0) {
        const rows = invalid === 1 ? '1 row is' : `${invalid} rows are`;
        await tx
          .update(imports)
          .set({
            state: 'failed',
            validRows: row.validRows - taken,
            invalidRows: invalid,
            importedRows: 0,
            finishedAt: clock.now(),
            error: `${rows} no longer valid (see the rows): ${NOTHING_IMPORTED}`,
          })
          .where(where);
        return null;
      }
    }
    const [started] = await tx
      .update(imports)
      .set({
        state: 'running',
        error: null,
        startedAt: row.startedAt ?? clock.now(),
        // all or nothing keeps no part of a run: a killed run's published progress starts again
        ...(row.mode === 'all_or_nothing' ? { importedRows: 0 } : {}),
      })
      .where(where)
      .returning();
    return started ?? null;
  });
  if (!start) return;
  await hooks.afterStart?.();
  if (start.mode === 'all_or_nothing') {
    await runAllOrNothing(deps, start, hooks);
  } else {
    for (let batchNo = 0; ; batchNo += 1) {
      await hooks.beforeBatch?.(batchNo);
      const done = await runInTenant(deps, actor, (ctx) =>
        importBatch(ctx, mail, start, hooks.afterRow),
      );
      if (done.rows === 0) break;
    }
    await runInTenant(deps, actor, async ({ tx, clock }) => {
      await tx
        .update(imports)
        .set({ state: 'completed', finishedAt: clock.now() })
        .where(and(where, eq(imports.state, 'running')));
    });
  }
  // the tables grew by up to the file's rows: the embedded database's planner is told at once
  await refreshStatistics(deps.db, ['subjects', 'cases', 'import_rows']);
}

/**
 * An all-or-nothing run: every batch in one transaction (see runImport). A row refused while it
 * runs rolls the run back to its start and fails the import in that same transaction, still
 * holding the run's lock: a second run waiting on the lock then finds the import failed, never a
 * 'running' one whose failure is not yet written (it would run it again and count the row twice).
 */
async function runAllOrNothing(deps: AppDeps, start: ImportRow, hooks: RunHooks): Promise<void> {
  const actor = jobActor(start.customerId);
  const where = and(eq(imports.customerId, start.customerId), eq(imports.id, start.id));
  const mail = { publicUrl: deps.config.publicUrl };
  await runInTenant(deps, actor, async (ctx) => {
    // one run at a time (a second waits, then finds the import completed or failed); not the
    // import's row lock, which the progress's own transaction takes
    await ctx.tx.execute(sql`select pg_advisory_xact_lock(hashtext('imports'), ${start.id})`);
    const [now] = await ctx.tx.select({ state: imports.state }).from(imports).where(where);
    if (now?.state !== 'running') return;
    await ctx.tx.execute(sql`savepoint import_run`);
    try {
      let imported = 0;
      let last = 0;
      for (let batchNo = 0; ; batchNo += 1) {
        await hooks.beforeBatch?.(batchNo);
        const done = await importBatch(ctx, mail, start, hooks.afterRow, true, last);
        if (done.rows === 0) break;
        imported += done.imported;
        last = done.last;
        if (deps.db.kind === 'pg') await publishProgress(deps, start, imported);
      }
      await ctx.tx
        .update(imports)
        .set({ state: 'completed', importedRows: imported, finishedAt: ctx.clock.now() })
        .where(where);
    } catch (err) {
      if (!(err instanceof RowRefused)) throw err;
      await ctx.tx.execute(sql`rollback to savepoint import_run`);
      await ctx.tx
        .update(importRows)
        .set({ outcome: 'invalid', errors: err.errors })
        .where(
          and(
            eq(importRows.customerId, start.customerId),
            eq(importRows.importId, start.id),
            eq(importRows.rowNumber, err.rowNumber),
          ),
        );
      await ctx.tx
        .update(imports)
        .set({
          state: 'failed',
          importedRows: 0,
          validRows: sql`${imports.validRows} - 1`,
          invalidRows: sql`${imports.invalidRows} + 1`,
          finishedAt: ctx.clock.now(),
          error: `Row ${err.rowNumber} could not be imported (see the rows): ${NOTHING_IMPORTED}`,
        })
        .where(and(where, eq(imports.state, 'running')));
    }
  });
}

/**
 * The progress of an all-or-nothing run (its rows so far, not yet committed), shown while its one
 * transaction runs: written from another connection (PostgreSQL only).
 */
async function publishProgress(deps: AppDeps, row: ImportRow, imported: number): Promise<void> {
  // deliberately outside the run's transaction (which the driver otherwise refuses to nest): its
  // own short one on another of the pool's connections, committed at once
  await openTransaction.exit(() =>
    runInTenant(deps, jobActor(row.customerId), async ({ tx }) => {
      await tx
        .update(imports)
        .set({ importedRows: imported })
        .where(
          and(
            eq(imports.customerId, row.customerId),
            eq(imports.id, row.id),
            eq(imports.state, 'running'),
          ),
        );
    }),
  );
}

/**
 * Marks invalid the valid rows of `row` whose email the customer holds now (taken since
 * validation), a page at a time; their count.
 */
async function markHeldSinceValidation(tx: Tx, row: ImportRow): Promise<number> {
  let after = 0;
  let taken = 0;
  for (;;) {
    const page = await tx
      .select({ n: importRows.rowNumber, cells: importRows.cells })
      .from(importRows)
      .where(
        and(
          eq(importRows.customerId, row.customerId),
          eq(importRows.importId, row.id),
          eq(importRows.outcome, 'valid'),
          gt(importRows.rowNumber, after),
        ),
      )
      .orderBy(asc(importRows.rowNumber))
      .limit(IMPORT_BATCH);
    if (page.length === 0) return taken;
    after = page[page.length - 1]?.n ?? after;
    const byEmail = new Map<string, number>();
    for (const r of page) {
      const checked = checkRow(rowBody(row.headers, row.mapping, r.cells));
      if (checked.ok) byEmail.set(checked.data.email.toLowerCase(), r.n);
    }
    if (byEmail.size === 0) continue;
    const held = await tx
      .select({ e: subjects.searchEmail })
      .from(subjects)
      .where(
        and(
          eq(subjects.customerId, row.customerId),
          inArray(subjects.searchEmail, [...byEmail.keys()]),
        ),
      );
    const numbers = held.flatMap((h) => {
      const n = h.e === null ? undefined : byEmail.get(h.e);
      return n === undefined ? [] : [n];
    });
    if (numbers.length === 0) continue;
    await tx
      .update(importRows)
      .set({ outcome: 'invalid', errors: { email: [EMAIL_HELD] } })
      .where(
        and(
          eq(importRows.customerId, row.customerId),
          eq(importRows.importId, row.id),
          inArray(importRows.rowNumber, numbers),
        ),
      );
    taken += numbers.length;
  }
}

/**
 * One batch of valid rows (locked: a second run waits, then finds them imported). A row refused
 * (a ValidationError) keeps nothing of it and is reported invalid (its subject and case are made
 * in a savepoint: a case refused takes its subject back; a subject alone is refused before it is
 * written), or with `allOrNothing` throws RowRefused (the caller rolls everything back). Its rows (0 when none is left) and the rows imported; the import's counts are added to
 * except with `allOrNothing` (its run sets them once, at the end).
 */
export async function importBatch(
  ctx: ServiceContext,
  mail: CaseMailDeps,
  row: ImportRow,
  afterRow?: (rowNumber: number) => void,
  allOrNothing = false,
  /**
   * Past this row number only (all or nothing: the run's one transaction has marked the rows
   * before, whose old versions it cannot prune, so each batch would scan them all again).
   */
  after = 0,
): Promise<{ rows: number; imported: number; last: number }> {
  const { tx, actor } = ctx;
  const batch = await tx
    .select({ n: importRows.rowNumber, cells: importRows.cells })
    .from(importRows)
    .where(
      and(
        eq(importRows.customerId, row.customerId),
        eq(importRows.importId, row.id),
        eq(importRows.outcome, 'valid'),
        gt(importRows.rowNumber, after),
      ),
    )
    .orderBy(asc(importRows.rowNumber))
    .limit(RUN_BATCH)
    .for('update');
  if (batch.length === 0) return { rows: 0, imported: 0, last: after };
  const outcomes: {
    n: number;
    outcome: string;
    errors: ImportRowErrors | null;
    s: number | null;
    c: number | null;
  }[] = [];
  let imported = 0;
  for (const r of batch) {
    const checked = checkRow(rowBody(row.headers, row.mapping, r.cells));
    if (!checked.ok) {
      if (allOrNothing) throw new RowRefused(r.n, checked.errors);
      outcomes.push({ n: r.n, outcome: 'invalid', errors: checked.errors, s: null, c: null });
      continue;
    }
    const savepoint = !allOrNothing && row.processId !== null;
    if (savepoint) await tx.execute(sql`savepoint import_row`);
    try {
      const subject = await insertSubject(tx, actor, row.customerId, checked.data);
      let caseId: number | null = null;
      if (row.processId !== null) {
        const opened = await openCase(ctx, mail, { process: row.processId, subject: subject.id });
        caseId = opened.id;
      }
      if (savepoint) await tx.execute(sql`release savepoint import_row`);
      imported += 1;
      afterRow?.(r.n);
      outcomes.push({ n: r.n, outcome: 'imported', errors: null, s: subject.id, c: caseId });
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      if (allOrNothing) throw new RowRefused(r.n, err.fields);
      // nothing of the row is kept (its subject made before its case was refused)
      if (savepoint) await tx.execute(sql`rollback to savepoint import_row`);
      outcomes.push({ n: r.n, outcome: 'invalid', errors: err.fields, s: null, c: null });
    }
  }
  await tx.execute(sql`
    update import_rows r set outcome = v.outcome, errors = v.errors, subject_id = v.s, case_id = v.c
    from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb)
      as v(n integer, outcome text, errors jsonb, s integer, c integer)
    where r.customer_id = ${row.customerId} and r.import_id = ${row.id} and r.row_number = v.n`);
  if (!allOrNothing) {
    const refused = outcomes.length - imported;
    await tx
      .update(imports)
      .set({
        importedRows: sql`${imports.importedRows} + ${imported}`,
        validRows: sql`${imports.validRows} - ${refused}`,
        invalidRows: sql`${imports.invalidRows} + ${refused}`,
      })
      .where(and(eq(imports.customerId, row.customerId), eq(imports.id, row.id)));
  }
  return { rows: batch.length, imported, last: batch[batch.length - 1]?.n ?? after };
}

/**
 * Marks a run failed with its error: all or nothing, nothing of it was kept; valid rows only,
 * the batches it committed stay (each whole), reported per row. A retry or a re-run goes on.
 */
export async function failImport(
  deps: AppDeps,
  customerId: number,
  importId: number,
  error: string,
) {
  await runInTenant(deps, jobActor(customerId), async ({ tx, clock }) => {
    await tx
      .update(imports)
      .set({
        state: 'failed',
        finishedAt: clock.now(),
        error: error.slice(0, 2000),
        // all or nothing kept nothing of the run (its count was the progress of a rolled-back run)
        importedRows: sql`case when ${imports.mode} = 'all_or_nothing' then 0 else ${imports.importedRows} end`,
      })
      .where(and(eq(imports.customerId, customerId), eq(imports.id, importId)));
  });
}

const csvCell = (v: string) =>
  /[",\r\n]/.test(v) || /^[=+\-@]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;

/** The result report, a CSV a batch of rows at a time: the file's columns, outcome and errors. */
export async function* reportLines(
  row: ImportRow,
  run: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>,
): AsyncGenerator<string> {
  yield `${['row', ...row.headers, 'outcome', 'subject_id', 'errors'].map(csvCell).join(',')}\r\n`;
  let after = 0;
  for (;;) {
    const batch = await run((tx) =>
      tx
        .select()
        .from(importRows)
        .where(
          and(
            eq(importRows.customerId, row.customerId),
            eq(importRows.importId, row.id),
            gt(importRows.rowNumber, after),
          ),
        )
        .orderBy(asc(importRows.rowNumber))
        .limit(IMPORT_BATCH),
    );
    if (batch.length === 0) return;
    after = batch[batch.length - 1]?.rowNumber ?? after;
    let out = '';
    for (const r of batch) {
      const errors = Object.entries(r.errors ?? {})
        .map(([f, msgs]) => `${f}: ${msgs.join(' ')}`)
        .join('; ');
      const cells = row.headers.map((_, i) => r.cells[i] ?? '');
      out += `${[String(r.rowNumber), ...cells, r.outcome, r.subjectId === null ? '' : String(r.subjectId), errors].map(csvCell).join(',')}\r\n`;
    }
    yield out;
  }
}

/** A page of the rows with errors (the screen's table): row number, field and messages. */
export async function rowsOut(
  tx: Tx,
  row: ImportRow,
  opts: { invalidOnly: boolean; limit: number; offset: number },
): Promise<{ count: number; results: ImportRowOut[] }> {
  const conds = [eq(importRows.customerId, row.customerId), eq(importRows.importId, row.id)];
  if (opts.invalidOnly) conds.push(eq(importRows.outcome, 'invalid'));
  const rows = await tx
    .select({ r: importRows, total: sql<number>`count(*) over ()` })
    .from(importRows)
    .where(and(...conds))
    .orderBy(asc(importRows.rowNumber))
    .limit(opts.limit)
    .offset(opts.offset);
  return {
    count: Number(rows[0]?.total ?? 0),
    results: rows.map(({ r }) => ({
      row_number: r.rowNumber,
      outcome: r.outcome as ImportRowOut['outcome'],
      errors: r.errors ?? {},
      subject_id: r.subjectId,
    })),
  };
}
