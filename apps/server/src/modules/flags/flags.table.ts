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
import { subjects } from '../subjects/subjects.table.js';

/**
 * Attention flags raised on a customer's cases or subjects (by rules or by hand); the navigation
 * shows the active count. Resolving keeps the row with who resolved it and why. case_id has no
 * foreign key (rules may flag before a case row exists; cases are archived, never deleted).
 */
export const flags = pgTable(
  'flags',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    caseId: integer('case_id'),
    subjectId: integer('subject_id'),
    /** `manual` or `rule`. */
    kind: varchar('kind', { length: 50 }).notNull(),
    message: text('message').notNull().default(''),
    active: boolean('active').notNull().default(true),
    createdByName: varchar('created_by_name', { length: 200 }).notNull().default(''),
    createdAt: createdAt(),
    resolvedAt: tstz('resolved_at'),
    resolvedByName: varchar('resolved_by_name', { length: 200 }),
    resolutionComment: text('resolution_comment').notNull().default(''),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    foreignKey({
      columns: [t.customerId, t.subjectId],
      foreignColumns: [subjects.customerId, subjects.id],
    }).onDelete('cascade'),
    index('flags_active_idx').on(t.customerId, t.active),
    index('flags_case_idx')
      .on(t.customerId, t.caseId)
      .where(sql`${t.active} and ${t.caseId} is not null`),
    index('flags_created_idx').on(t.customerId, t.createdAt),
  ],
);
