import {
  BULK_INVITE_ARCHIVED,
  BULK_INVITE_EMAIL_IN_FILE,
  BULK_INVITE_MAX_ROWS,
  BULK_INVITE_NO_ROWS,
  BULK_INVITE_NOTHING_VALID,
  BULK_INVITE_OTHER_NAME,
  BULK_INVITE_TOO_MANY,
  type BulkInviteIn,
  type BulkInvitePreviewOut,
  type BulkInviteResultOut,
  type BulkInviteRowOut,
  bulkInviteColumns,
  bulkInviteMissingColumns,
  checkBulkInviteRow,
  IMPORT_FIELDS,
  type SubjectCreate,
  sameSubjectNames,
} from '@kestrel/domain';
import { parse } from 'csv-parse/sync';
import { eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import { PermissionDeniedError, ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { CASE_CT } from '../cases/cases.service.js';
import { openCase } from '../cases/commands/open-case.js';
import type { CaseMailDeps } from '../cases/commands/subject-email.js';
import { processes } from '../processes/processes.table.js';
import { subjects } from '../subjects/subjects.table.js';

/** A good row: the subject to create, or the existing subject its email names. */
interface GoodRow {
  rowNumber: number;
  data: SubjectCreate;
  subjectId: number | null;
}

interface Checked {
  preview: BulkInvitePreviewOut;
  good: GoodRow[];
}

function isInfoRecord(v: unknown): v is { record: string[]; info: { lines: number } } {
  return typeof v === 'object' && v !== null && 'record' in v && 'info' in v;
}

/** The CSV's rows (header first), or a 400 on `csv` when it cannot be read. */
function readCsv(text: string): { rowNumber: number; cells: string[] }[] {
  try {
    // with `info`, each record comes as {record, info} (csv-parse's types say string[][])
    const records: unknown[] = parse(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
    });
    return records
      .filter(isInfoRecord)
      .filter((r) => r.record.some((c) => c !== ''))
      .map((r) => ({ rowNumber: r.info.lines, cells: r.record }));
  } catch (err) {
    throw ValidationError.of(
      'csv',
      `The file could not be read as CSV: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

async function checkProcess(tx: Tx, id: number) {
  const [p] = await tx
    .select({ id: processes.id, name: processes.name, active: processes.isActive })
    .from(processes)
    .where(eq(processes.id, id));
  if (!p) throw ValidationError.doesNotExist('process', id);
  if (!p.active) throw ValidationError.of('process', 'Inactive process.');
  return p;
}

/**
 * Checks every row of the upload by the subject rules (the process first: the customer's own,
 * active): per-row errors by field; an email repeated in the file is an error on its later rows;
 * an email of one of the customer's subjects opens the case for that subject when the names
 * agree (an archived subject, or another name, is an error). Reads only.
 */
export async function checkBulkInvite(tx: Tx, input: BulkInviteIn): Promise<Checked> {
  await checkProcess(tx, input.process);
  const [header, ...body] = readCsv(input.csv);
  if (!header || body.length === 0) throw ValidationError.of('csv', BULK_INVITE_NO_ROWS);
  if (body.length > BULK_INVITE_MAX_ROWS) throw ValidationError.of('csv', BULK_INVITE_TOO_MANY);
  const columns = bulkInviteColumns(header.cells);
  const missing = bulkInviteMissingColumns(columns);
  if (missing.length > 0) {
    throw ValidationError.of('csv', `The header row has no column for: ${missing.join(', ')}.`);
  }
  const checked = body.map((r) => ({ n: r.rowNumber, ...checkBulkInviteRow(columns, r.cells) }));
  const emails = checked.flatMap((c) => (c.ok ? [c.data.email.toLowerCase()] : []));
  const held =
    emails.length === 0
      ? []
      : await tx
          .select({
            id: subjects.id,
            email: subjects.searchEmail,
            first_name: subjects.firstName,
            last_name: subjects.lastName,
            archivedAt: subjects.archivedAt,
          })
          .from(subjects)
          .where(inArray(subjects.searchEmail, emails));
  const byEmail = new Map(held.map((s) => [s.email, s]));
  const seen = new Set<string>();
  const rows: BulkInviteRowOut[] = [];
  const good: GoodRow[] = [];
  for (const c of checked) {
    let errors: Record<string, string[]> | null = c.ok ? null : c.errors;
    let subjectId: number | null = null;
    if (c.ok) {
      const email = c.data.email.toLowerCase();
      const existing = byEmail.get(email);
      if (seen.has(email)) errors = { email: [BULK_INVITE_EMAIL_IN_FILE] };
      else if (existing?.archivedAt) errors = { email: [BULK_INVITE_ARCHIVED] };
      else if (existing && !sameSubjectNames(existing, c.data)) {
        errors = { email: [BULK_INVITE_OTHER_NAME] };
      } else if (existing) subjectId = existing.id;
      seen.add(email);
      if (!errors) good.push({ rowNumber: c.n, data: c.data, subjectId });
    }
    rows.push({
      row_number: c.n,
      first_name: c.raw.first_name ?? '',
      last_name: c.raw.last_name ?? '',
      email: c.raw.email ?? '',
      subject_id: subjectId,
      errors,
    });
  }
  const found: Record<string, string> = {};
  for (const field of IMPORT_FIELDS) {
    const i = columns[field];
    if (i !== undefined) found[field] = header.cells[i] ?? '';
  }
  return {
    preview: {
      columns: found,
      valid_rows: good.length,
      invalid_rows: rows.length - good.length,
      rows,
    },
    good,
  };
}

/**
 * Confirms a bulk invite: the file is checked again (as the preview did) and every good row gets
 * its case under the process (openCase: the subject created or found, its activities, its
 * invitation, audited each), all in the context's one transaction; the bad rows are left out
 * and reported. 400 when no row is good. The upload itself is audited with its counts.
 */
export async function confirmBulkInvite(
  ctx: ServiceContext,
  deps: CaseMailDeps,
  input: BulkInviteIn,
): Promise<BulkInviteResultOut> {
  const { tx, actor } = ctx;
  if (actor.customerId === null) throw new PermissionDeniedError();
  const { preview, good } = await checkBulkInvite(tx, input);
  if (good.length === 0) throw ValidationError.of('csv', BULK_INVITE_NOTHING_VALID);
  const created: BulkInviteResultOut['created'] = [];
  for (const row of good) {
    const c = await openCase(
      ctx,
      deps,
      row.subjectId === null
        ? { process: input.process, new_subject: row.data }
        : { process: input.process, subject: row.subjectId },
    );
    created.push({ row_number: row.rowNumber, case_id: c.id, subject_id: c.subject.id });
  }
  const skipped = preview.rows.filter((r) => r.errors !== null);
  await recordAudit(tx, actor, {
    verb: 'invited',
    contentType: CASE_CT,
    objectRepr: `Bulk invite: ${created.length} cases`,
    changes: {
      process: input.process,
      cases: created.map((c) => c.case_id),
      skipped_rows: skipped.map((r) => r.row_number),
    },
  });
  return { created, skipped };
}
