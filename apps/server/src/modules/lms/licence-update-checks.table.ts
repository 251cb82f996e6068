import {
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn } from '../../db/columns.js';
import { customers } from '../customers/customers.table.js';
import { licences } from './lms.table.js';

/**
 * The DBS update service cycles of licensed drivers (issue 32): one row per licence and period
 * (`due_on`, every six months from the licence's issue), written before its check is started,
 * so two server processes (or a second run) never check a licence twice in one period. The
 * check is a dbs-update activity on the case that holds the holder's certificate.
 */
export const licenceUpdateChecks = pgTable(
  'licence_update_checks',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    licenceId: integer('licence_id').notNull(),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    caseId: integer('case_id').notNull(),
    caseActivityId: integer('case_activity_id'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    foreignKey({
      columns: [t.customerId, t.licenceId],
      foreignColumns: [licences.customerId, licences.id],
    }).onDelete('cascade'),
    uniqueIndex('licence_update_checks_period_idx').on(t.customerId, t.licenceId, t.dueOn),
    index('licence_update_checks_case_idx').on(t.customerId, t.caseId),
  ],
);
