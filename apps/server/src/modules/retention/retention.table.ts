import type { Inspector, RetentionRuleCode } from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { cases } from '../cases/cases.table.js';
import { customers } from '../customers/customers.table.js';

/**
 * A customer's retention settings (issue 34): its own period per rule (months; the domain's
 * default where absent) and the regulator that inspects it, with the next inspection's date.
 * A customer without a row follows the defaults.
 */
export const retentionSettings = pgTable('retention_settings', {
  customerId: customerIdColumn()
    .primaryKey()
    .references(() => customers.id, { onDelete: 'cascade' }),
  inspector: varchar('inspector', { length: 10 }).$type<Inspector>(),
  nextInspectionDate: date('next_inspection_date', { mode: 'string' }),
  months: jsonb('months')
    .$type<Partial<Record<RetentionRuleCode, number>>>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  updatedAt: tstz('updated_at').notNull().defaultNow(),
});

/**
 * A case's retention state: its legal hold (which stops every redaction of it) with the reason,
 * when and by whom, and the end of the subject's employment (right-to-work evidence counts from
 * it). A case without a row has no hold and no recorded end.
 */
export const caseRetention = pgTable(
  'case_retention',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    caseId: integer('case_id').notNull(),
    legalHold: boolean('legal_hold').notNull().default(false),
    holdReason: varchar('hold_reason', { length: 500 }).notNull().default(''),
    holdSetAt: tstz('hold_set_at'),
    holdSetBy: varchar('hold_set_by', { length: 200 }).notNull().default(''),
    employmentEndedOn: date('employment_ended_on', { mode: 'string' }),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.caseId] }),
    foreignKey({
      columns: [t.customerId, t.caseId],
      foreignColumns: [cases.customerId, cases.id],
    }).onDelete('cascade'),
    index('case_retention_hold_idx').on(t.customerId).where(sql`${t.legalHold}`),
  ],
);

/**
 * What the retention job (or an erasure) removed: the item (a document, an activity's result, a
 * whole case's content), under which rule, what was removed in words, and when. Unique per item
 * and rule, so an item is redacted once however often the job runs. Kept when the case goes.
 */
export const retentionRedactions = pgTable(
  'retention_redactions',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    caseId: integer('case_id').notNull(),
    subjectId: integer('subject_id').notNull(),
    /** 'document', 'activity' or 'case'. */
    target: varchar('target', { length: 10 }).$type<'document' | 'activity' | 'case'>().notNull(),
    targetId: integer('target_id').notNull(),
    /** A RetentionRuleCode, or another reason's code (an erasure's: 'erasure'). */
    rule: varchar('rule', { length: 40 }).notNull(),
    removed: jsonb('removed').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    redactedAt: tstz('redacted_at').notNull(),
    /**
     * When the copies of what was removed that other records hold (the audit log's, the
     * callback inbox's) were scrubbed (redacted-copies.ts); null until then, so a scrub that
     * failed is done by a later run however long it failed.
     */
    copiesScrubbedAt: tstz('copies_scrubbed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    uniqueIndex('retention_redactions_item_key').on(t.customerId, t.target, t.targetId, t.rule),
    index('retention_redactions_case_idx').on(t.customerId, t.caseId, t.redactedAt),
    // the scrub's work: each customer's redactions whose copies are still to scrub
    index('retention_redactions_unscrubbed_idx')
      .on(t.customerId, t.id)
      .where(sql`${t.copiesScrubbedAt} is null`),
  ],
);
