import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { customers } from '../customers/customers.table.js';

/** ISO 3166 countries keyed by alpha-3, with nationality and DBS support flags. */
export const countries = pgTable('countries', {
  code: varchar('code', { length: 3 }).primaryKey(),
  name: varchar('name', { length: 100 }).notNull(),
  nationality: varchar('nationality', { length: 100 }).notNull(),
  deprecated: boolean('deprecated').notNull().default(false),
  ebulkMissing: boolean('ebulk_missing').notNull().default(false),
  sortOrder: smallint('sort_order').notNull().default(0),
});

/** Kinds of check a case can contain (dbs-basic, ...). */
export const activityTypes = pgTable('activity_types', {
  id: idColumn().primaryKey(),
  code: varchar('code', { length: 50 }).notNull().unique(),
  name: varchar('name', { length: 100 }).notNull(),
  kind: varchar('kind', { length: 50 }).notNull(),
});

/** Model names used by audit actions and generic relations (Django-style app_label.model). */
export const contentTypes = pgTable(
  'content_types',
  {
    id: idColumn().primaryKey(),
    appLabel: varchar('app_label', { length: 50 }).notNull(),
    model: varchar('model', { length: 50 }).notNull(),
  },
  (t) => [uniqueIndex('content_types_unique').on(t.appLabel, t.model)],
);

/** Audit verbs (created, updated, deleted, logged_in, ...). */
export const verbs = pgTable('verbs', {
  id: idColumn().primaryKey(),
  code: varchar('code', { length: 50 }).notNull().unique(),
  name: varchar('name', { length: 100 }).notNull(),
});

/** Attention flags raised on a customer's cases; the navigation shows the active count. */
export const flags = pgTable(
  'flags',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    caseId: integer('case_id'),
    kind: varchar('kind', { length: 50 }).notNull(),
    message: text('message').notNull().default(''),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    resolvedAt: tstz('resolved_at'),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('flags_active_idx').on(t.customerId, t.active),
  ],
);
