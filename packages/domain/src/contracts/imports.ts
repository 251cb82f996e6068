import { z } from 'zod';

/** The subject fields an import maps the file's columns to (POST /api/subjects/'s body). */
export const IMPORT_FIELDS = [
  'first_name',
  'middlename',
  'last_name',
  'email',
  'dob',
  'phone_number',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

export const IMPORT_MODES = ['all_or_nothing', 'valid_rows'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

export const IMPORT_STATES = ['uploaded', 'validated', 'running', 'completed', 'failed'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

/** An import as the ops API returns it. */
export const importOut = z.strictObject({
  id: z.number(),
  customer_id: z.number(),
  customer_name: z.string(),
  file_name: z.string(),
  process_id: z.number().nullable(),
  created_by_name: z.string(),
  mode: z.enum(IMPORT_MODES),
  state: z.enum(IMPORT_STATES),
  headers: z.array(z.string()),
  /** Subject field → the file's column header. */
  mapping: z.record(z.string(), z.string()),
  total_rows: z.number(),
  valid_rows: z.number(),
  invalid_rows: z.number(),
  imported_rows: z.number(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  error: z.string().nullable(),
});
export type ImportOut = z.infer<typeof importOut>;

/** The first rows of the file under the mapping (preview). */
export const importPreviewOut = z.strictObject({
  headers: z.array(z.string()),
  mapping: z.record(z.string(), z.string()),
  rows: z.array(z.strictObject({ row_number: z.number(), cells: z.array(z.string()) })),
});
export type ImportPreviewOut = z.infer<typeof importPreviewOut>;

/** PUT mapping: field → header (a field left out is not imported); the mode; a process. */
export const importSettings = z.strictObject({
  mapping: z.partialRecord(z.enum(IMPORT_FIELDS), z.string().max(200)),
  mode: z.enum(IMPORT_MODES).optional(),
  process_id: z.number().int().positive().nullable().optional(),
});
export type ImportSettings = z.infer<typeof importSettings>;

/** A row's outcome: its number in the file (the header is row 1), its errors by field. */
export const importRowOut = z.strictObject({
  row_number: z.number(),
  outcome: z.enum(['pending', 'valid', 'invalid', 'imported', 'skipped']),
  errors: z.record(z.string(), z.array(z.string())),
  subject_id: z.number().nullable(),
});
export type ImportRowOut = z.infer<typeof importRowOut>;
