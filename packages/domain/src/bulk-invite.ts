import { z } from 'zod';
import { idSchema } from './contracts/common.js';
import { IMPORT_FIELDS, type ImportField } from './contracts/imports.js';
import { type SubjectCreate, subjectCreate } from './contracts/subjects.js';

/**
 * Bulk invite from a CSV (issue 33): a customer uploads a CSV of people to open a case each
 * under one process. The preview checks every row (per-row errors); confirming creates the good
 * rows only, each with its case and invitation, and reports the bad ones again. A row whose
 * email belongs to one of the customer's subjects opens the case for that subject when the names
 * agree.
 */

/** At most this many people per upload. */
export const BULK_INVITE_MAX_ROWS = 500;
/** The CSV's size limit, in characters. */
export const BULK_INVITE_MAX_CHARS = 1_000_000;

export const BULK_INVITE_NO_ROWS = 'The file has no rows under its header row.';
export const BULK_INVITE_TOO_MANY = `A file may hold at most ${BULK_INVITE_MAX_ROWS} people.`;
export const BULK_INVITE_EMAIL_IN_FILE = 'This email is on an earlier row of the file.';
export const BULK_INVITE_OTHER_NAME = 'A subject with this email exists under another name.';
export const BULK_INVITE_ARCHIVED = 'The subject with this email is archived.';
export const BULK_INVITE_NOTHING_VALID = 'No row is valid: correct the file and upload it again.';

/** The request of the preview and of the confirmation: the process and the CSV's text. */
export const bulkInviteIn = z.strictObject({
  process: idSchema,
  csv: z
    .string({ error: 'Required' })
    .min(1, 'Choose a CSV file.')
    .max(BULK_INVITE_MAX_CHARS, 'The file is too large (at most 1 MB).'),
});
export type BulkInviteIn = z.output<typeof bulkInviteIn>;

/** One row of the file as the preview shows it. */
export const bulkInviteRowOut = z.strictObject({
  row_number: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  /** The existing subject the case would be opened for, or null for a new subject. */
  subject_id: z.number().nullable(),
  /** Errors by field (`{email: ['...']}`), or null for a good row. */
  errors: z.record(z.string(), z.array(z.string())).nullable(),
});
export type BulkInviteRowOut = z.output<typeof bulkInviteRowOut>;

export const bulkInvitePreviewOut = z.strictObject({
  /** The columns found, by subject field (`first_name` → `Forename`). */
  columns: z.record(z.string(), z.string()),
  valid_rows: z.number(),
  invalid_rows: z.number(),
  rows: z.array(bulkInviteRowOut),
});
export type BulkInvitePreviewOut = z.output<typeof bulkInvitePreviewOut>;

export const bulkInviteResultOut = z.strictObject({
  created: z.array(
    z.strictObject({ row_number: z.number(), case_id: z.number(), subject_id: z.number() }),
  ),
  /** The rows left out, with their errors. */
  skipped: z.array(bulkInviteRowOut),
});
export type BulkInviteResultOut = z.output<typeof bulkInviteResultOut>;

const ALIASES: Record<ImportField, readonly string[]> = {
  first_name: ['firstname', 'forename', 'forenames', 'givenname', 'first'],
  middlename: ['middlename', 'middlenames', 'middle'],
  last_name: ['lastname', 'surname', 'familyname', 'last'],
  email: ['email', 'emailaddress', 'mail'],
  dob: ['dob', 'dateofbirth', 'birthdate', 'birthday'],
  phone_number: ['phonenumber', 'phone', 'mobile', 'mobilenumber', 'telephone', 'tel'],
};

/** The subject field → column index of a header row (`First name`, `Surname`, `E-mail`...). */
export function bulkInviteColumns(
  headers: readonly string[],
): Partial<Record<ImportField, number>> {
  const norm = (h: string) => h.toLowerCase().replace(/[^a-z]/g, '');
  const out: Partial<Record<ImportField, number>> = {};
  for (const field of IMPORT_FIELDS) {
    const i = headers.findIndex((h) => ALIASES[field].includes(norm(h)));
    if (i >= 0) out[field] = i;
  }
  return out;
}

/** The header errors: the columns a file must have (first name, last name, email). */
export function bulkInviteMissingColumns(columns: Partial<Record<ImportField, number>>): string[] {
  const names: Record<'first_name' | 'last_name' | 'email', string> = {
    first_name: 'first name',
    last_name: 'last name',
    email: 'email',
  };
  return (['first_name', 'last_name', 'email'] as const)
    .filter((f) => columns[f] === undefined)
    .map((f) => names[f]);
}

export type BulkInviteRowCheck =
  | { ok: true; data: SubjectCreate; raw: Record<string, string> }
  | { ok: false; errors: Record<string, string[]>; raw: Record<string, string> };

/**
 * One row's cells checked by the subject rules (POST /api/subjects/'s schema): its parsed
 * subject, or its errors by field. Empty optional cells are left out.
 */
export function checkBulkInviteRow(
  columns: Partial<Record<ImportField, number>>,
  cells: readonly string[],
): BulkInviteRowCheck {
  const raw: Record<string, string> = {};
  for (const field of IMPORT_FIELDS) {
    const i = columns[field];
    const value = i === undefined ? '' : (cells[i] ?? '').trim();
    const required = field === 'first_name' || field === 'last_name' || field === 'email';
    if (value === '' && !required) continue;
    raw[field] = value;
  }
  const parsed = subjectCreate.safeParse(raw);
  if (parsed.success) return { ok: true, data: parsed.data, raw };
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.join('.') || 'non_field_errors';
    errors[key] = [...(errors[key] ?? []), issue.message];
  }
  return { ok: false, errors, raw };
}

/** Whether an existing subject's names agree with a row's (case and spacing aside). */
export function sameSubjectNames(
  a: { first_name: string; last_name: string },
  b: { first_name: string; last_name: string },
): boolean {
  const n = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');
  return n(a.first_name) === n(b.first_name) && n(a.last_name) === n(b.last_name);
}
