import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  unique,
  varchar,
} from 'drizzle-orm/pg-core';
import { tstz } from '../../db/columns.js';

/**
 * Who saw what (issue 34): every successful view of a criminal-record result, a driving record
 * or a document (its page or preview, or its download), by anyone: customer staff, operations,
 * the subject, an API key. One row per viewer, item, manner and window, counted (first and last
 * time), as security_refusals folds refusals, so the record stays readable. Written by the
 * system (access-log.service.ts) in one statement; the customer's audit viewers read theirs
 * (tenant RLS, segment scope by case_id), operations all.
 */
export const recordViews = pgTable(
  'record_views',
  {
    id: bigint('id', { mode: 'number' }).notNull().generatedByDefaultAsIdentity(),
    customerId: integer('customer_id').notNull(),
    caseId: integer('case_id').notNull(),
    /** `criminal_record`, `driving_record` or `document`. */
    itemKind: varchar('item_kind', { length: 20 }).notNull(),
    /** The activity's id (a result) or the document's id. */
    itemId: integer('item_id').notNull(),
    /** What it was when seen: the activity type's name, or the document's type and file name. */
    itemLabel: varchar('item_label', { length: 200 }).notNull().default(''),
    /** `page` (a result on screen, a document's preview) or `download`. */
    how: varchar('how', { length: 10 }).notNull(),
    actorType: varchar('actor_type', { length: 20 }),
    actorId: integer('actor_id'),
    actorName: varchar('actor_name', { length: 200 }).notNull().default(''),
    /** Operations staff (shown with their own name, marked as Kestrel operations). */
    actorIsOps: boolean('actor_is_ops').notNull().default(false),
    windowStart: tstz('window_start').notNull(),
    firstSeenAt: tstz('first_seen_at').notNull(),
    lastSeenAt: tstz('last_seen_at').notNull(),
    count: integer('count').notNull().default(1),
    /** Address and browser (a short summary of the user agent) of the last view. */
    ip: varchar('ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 100 }).notNull().default(''),
  },
  (t) => [
    // the tenant's key first, as every distributed table's (docs/decisions/023-ready-for-citus.md)
    primaryKey({ columns: [t.customerId, t.id] }),
    unique('record_views_window_key')
      .on(t.customerId, t.itemKind, t.itemId, t.how, t.actorType, t.actorId, t.windowStart)
      .nullsNotDistinct(),
    index('record_views_customer_idx').on(t.customerId, t.lastSeenAt),
    index('record_views_case_idx').on(t.customerId, t.caseId, t.lastSeenAt),
  ],
);
