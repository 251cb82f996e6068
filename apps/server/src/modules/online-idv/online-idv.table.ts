import {
  boolean,
  foreignKey,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, tstz } from '../../db/columns.js';
import { cases } from '../cases/cases.table.js';
import { customers } from '../customers/customers.table.js';

/**
 * A case's online identity check (spec point 3: session, ibv_verified, ibv_session,
 * manual_idv_approved, id_profile), one row per case once the person starts it. `status` is
 * in-progress until the provider's result is stored (passed or failed), once. The provider's
 * session id is unique: a callback finds its case by it (cross-tenant, as the system).
 */
export const caseOnlineIdv = pgTable(
  'case_online_idv',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    caseId: integer('case_id').notNull(),
    provider: varchar('provider', { length: 20 }).notNull(),
    session: varchar('session', { length: 100 }).notNull(),
    /** The provider's page of the current session (the person may come back to it). */
    sessionUrl: varchar('session_url', { length: 500 }).notNull(),
    status: varchar('status', { length: 20 }).notNull().default('in-progress'),
    ibvVerified: boolean('ibv_verified').notNull().default(false),
    ibvSession: varchar('ibv_session', { length: 100 }),
    manualIdvApproved: boolean('manual_idv_approved').notNull().default(false),
    idProfile: jsonb('id_profile').$type<Record<string, unknown>>(),
    startedAt: tstz('started_at').notNull(),
    completedAt: tstz('completed_at'),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.caseId] }),
    foreignKey({
      name: 'case_online_idv_case_fk',
      columns: [t.customerId, t.caseId],
      foreignColumns: [cases.customerId, cases.id],
    }).onDelete('cascade'),
    uniqueIndex('case_online_idv_session_unique').on(t.session),
  ],
);
