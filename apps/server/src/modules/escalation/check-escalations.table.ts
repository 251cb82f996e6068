import {
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { caseActivities } from '../activities/activities.table.js';
import { customers } from '../customers/customers.table.js';

/**
 * An open check past its expected completion date (issue 33), escalated to operations and
 * flagged to the customer (the flag's id kept): once per check and expected date (the unique
 * key), so a later stage that moves the date on escalates again only when that date passes too.
 * `resolved_at` is set when the check leaves the provider's hands (complete, cancelled).
 */
export const checkEscalations = pgTable(
  'check_escalations',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    caseId: integer('case_id').notNull(),
    caseActivityId: integer('case_activity_id').notNull(),
    expectedOn: date('expected_on', { mode: 'string' }).notNull(),
    escalatedAt: tstz('escalated_at').notNull(),
    flagId: integer('flag_id'),
    resolvedAt: tstz('resolved_at'),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    foreignKey({
      columns: [t.customerId, t.caseActivityId],
      foreignColumns: [caseActivities.customerId, caseActivities.id],
    }).onDelete('cascade'),
    uniqueIndex('check_escalations_key').on(t.customerId, t.caseActivityId, t.expectedOn),
    // operations' list across customers, newest first; the customer's open ones
    index('check_escalations_escalated_idx').on(t.escalatedAt),
    index('check_escalations_open_idx').on(t.customerId, t.resolvedAt),
  ],
);
