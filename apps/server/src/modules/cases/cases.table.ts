import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { customers } from '../customers/customers.table.js';
import { processes } from '../processes/processes.table.js';
import { subjects } from '../subjects/subjects.table.js';

/**
 * A check of one subject under one process. `subject_id` is the customer's `subjects` row; the
 * kestrel_subject role sees the cases of the subjects linked to its login (and, through `case_id`, their children).
 */
export const cases = pgTable(
  'cases',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    processId: integer('process_id').notNull(),
    subjectId: integer('subject_id').notNull(),
    /** A CaseState of @kestrel/domain. */
    state: varchar('state', { length: 30 }).notNull(),
    decision: varchar('decision', { length: 20 }),
    decisionNotes: text('decision_notes').notNull().default(''),
    cancelledReason: text('cancelled_reason').notNull().default(''),
    createdById: integer('created_by_id'),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
    completedAt: tstz('completed_at'),
    archivedAt: tstz('archived_at'),
    lastReminderAt: tstz('last_reminder_at'),
    /** The subject's progress through the case portal (spec point 4): `section` or `section/step`. */
    portalLastCompletedSection: varchar('portal_last_completed_section', { length: 60 }),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('cases_id_idx').on(t.id),
    foreignKey({
      columns: [t.customerId, t.processId],
      foreignColumns: [processes.customerId, processes.id],
    }),
    foreignKey({
      columns: [t.customerId, t.subjectId],
      foreignColumns: [subjects.customerId, subjects.id],
    }).onDelete('cascade'),
    // The list shows unarchived cases by default: partial indexes serve its order, its state
    // filter and its count (index-only).
    index('cases_open_created_idx')
      .on(t.customerId, t.createdAt, t.id)
      .where(sql`${t.archivedAt} is null`),
    // The ops list across customers (/api/ops/cases/) in the same default order.
    index('cases_all_open_created_idx').on(t.createdAt, t.id).where(sql`${t.archivedAt} is null`),
    index('cases_open_state_idx')
      .on(t.customerId, t.state, t.createdAt, t.id)
      .where(sql`${t.archivedAt} is null`),
    index('cases_subject_idx').on(t.customerId, t.subjectId),
    index('cases_process_idx').on(t.customerId, t.processId, t.createdAt),
    index('cases_completed_idx')
      .on(t.customerId, t.completedAt)
      .where(sql`${t.completedAt} is not null`),
  ],
);

/**
 * How many cases a customer has per state and archived flag, kept by statement triggers on
 * `cases` (migration 0006) in the same transaction as the change: the case list's total reads a
 * few rows here instead of counting hundreds of index entries on every page.
 */
export const caseCounts = pgTable(
  'case_counts',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    state: varchar('state', { length: 30 }).notNull(),
    archived: boolean('archived').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.state, t.archived] })],
);
