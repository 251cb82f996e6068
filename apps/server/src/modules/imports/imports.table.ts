import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, varchar } from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { customers } from '../customers/customers.table.js';

/** One field's error on an import row: `{field: [messages]}` as the API's 400 body. */
export type ImportRowErrors = Record<string, string[]>;

/**
 * An upload of subjects for a customer (issue 29): the file's rows are kept in `import_rows`
 * (parsed as they streamed), the column mapping chosen, then validated and run as a job.
 * state: uploaded → validated → running → completed | failed.
 */
export const imports = pgTable(
  'imports',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    createdById: integer('created_by_id'),
    createdByName: varchar('created_by_name', { length: 200 }).notNull().default(''),
    fileName: varchar('file_name', { length: 255 }).notNull(),
    /** A process to open a case for each imported subject (null: subjects only). */
    processId: integer('process_id'),
    /** The file's header row, in order. */
    headers: jsonb('headers').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** Subject field → the file's column header. */
    mapping: jsonb('mapping').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    mode: varchar('mode', { length: 20 }).notNull().default('all_or_nothing'),
    state: varchar('state', { length: 20 }).notNull().default('uploaded'),
    totalRows: integer('total_rows').notNull().default(0),
    validRows: integer('valid_rows').notNull().default(0),
    invalidRows: integer('invalid_rows').notNull().default(0),
    importedRows: integer('imported_rows').notNull().default(0),
    createdAt: createdAt(),
    startedAt: tstz('started_at'),
    finishedAt: tstz('finished_at'),
    /** Why a run failed (the whole import: nothing of it kept). */
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.id] })],
);

/**
 * An import's rows as read from the file (cells by the header's index), each row's errors once
 * validated, and its outcome once run (the subject made for it: one per import and row number).
 */
export const importRows = pgTable(
  'import_rows',
  {
    customerId: customerIdColumn(),
    importId: integer('import_id').notNull(),
    rowNumber: integer('row_number').notNull(),
    cells: jsonb('cells').$type<string[]>().notNull(),
    errors: jsonb('errors').$type<ImportRowErrors>(),
    /** pending | valid | invalid | imported | skipped */
    outcome: varchar('outcome', { length: 20 }).notNull().default('pending'),
    subjectId: integer('subject_id'),
    caseId: integer('case_id'),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.importId, t.rowNumber] }),
    // the rows whose values the retention run has still to empty (retention/expiry.ts): an
    // emptied row leaves it, so the hourly run never reads it again
    index('import_rows_unexpired_idx')
      .on(t.customerId, t.importId, t.rowNumber)
      .where(sql`cells <> '[]'::jsonb`),
  ],
);
