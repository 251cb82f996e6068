import { sql } from 'drizzle-orm';
import {
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { customers } from '../customers/customers.table.js';
import { subjects } from '../subjects/subjects.table.js';

/** The audit's content type of an erasure request. */
export const ERASURE_REQUEST_CT = 'data_requests.erasurerequest';

/** What carrying out an erasure did, kept with the request (issue 34). */
export interface ErasureOutcome {
  /** Rows removed or blanked, by table (`subjects`: the record's personal fields blanked). */
  removed: Record<string, number>;
  /** Document files (pages and thumbnails) removed from storage. */
  files: number;
  /** Activities whose result content was redacted (the kept record: date, reference, level, outcome). */
  results: number;
  /** What was kept, in words. */
  kept: string[];
  /** Whether the person's sign-in was turned off (not when another customer still holds them). */
  signIn: 'disabled' | 'kept' | 'pending';
}

/**
 * A request to erase a subject's personal data (issue 34): recorded by the customer's staff or
 * asked for by the subject, decided by the customer (approved: carried out at once; refused, with
 * a reason). Never deleted: the request, the decision and what was done are the record.
 */
export const erasureRequests = pgTable(
  'erasure_requests',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    subjectId: integer('subject_id').notNull(),
    /** pending, refused or completed. */
    state: varchar('state', { length: 20 }).notNull().default('pending'),
    /** ProductUser (recorded by staff) or SubjectUser (asked by the person). */
    requestedByType: varchar('requested_by_type', { length: 20 }).notNull(),
    requestedById: integer('requested_by_id'),
    requestedByName: varchar('requested_by_name', { length: 200 }).notNull().default(''),
    reason: varchar('reason', { length: 1000 }).notNull().default(''),
    createdAt: createdAt(),
    decidedAt: tstz('decided_at'),
    decidedById: integer('decided_by_id'),
    decidedByName: varchar('decided_by_name', { length: 200 }).notNull().default(''),
    decisionReason: varchar('decision_reason', { length: 1000 }).notNull().default(''),
    completedAt: tstz('completed_at'),
    outcome: jsonb('outcome').$type<ErasureOutcome>(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('erasure_requests_id_idx').on(t.id),
    foreignKey({
      columns: [t.customerId, t.subjectId],
      foreignColumns: [subjects.customerId, subjects.id],
    }).onDelete('cascade'),
    index('erasure_requests_list_idx').on(t.customerId, t.createdAt, t.id),
    index('erasure_requests_state_idx').on(t.customerId, t.state, t.createdAt),
    index('erasure_requests_subject_idx').on(t.customerId, t.subjectId, t.createdAt),
    // one open request per subject at a time
    uniqueIndex('erasure_requests_pending_unique')
      .on(t.customerId, t.subjectId)
      .where(sql`${t.state} = 'pending'`),
  ],
);
