import { boolean, pgTable, smallint, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { idColumn } from '../../db/columns.js';

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
