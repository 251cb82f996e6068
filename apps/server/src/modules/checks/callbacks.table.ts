import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { customerIdColumn, tstz } from '../../db/columns.js';

/**
 * The provider-callback inbox (issue 17): each verified callback stored raw, once per provider
 * event id, in the request's one cheap insert (its 2xx answered once this commits), then applied
 * to its activity by the `checks-callbacks` job, in order per activity. `outcome` stays null until
 * applied: 'applied', 'stored' (recorded on an activity no longer in progress) or 'rejected' (not
 * this activity's provider or application: kept, with the reason in `error`, never lost).
 */
export const checkCallbackInbox = pgTable(
  'check_callback_inbox',
  {
    customerId: customerIdColumn(),
    id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity().primaryKey(),
    caseActivityId: integer('case_activity_id').notNull(),
    provider: varchar('provider', { length: 20 }).notNull(),
    eventId: varchar('event_id', { length: 200 }).notNull(),
    /** The verified callback as the provider sent it (the signed JSON, parsed). */
    body: jsonb('body').notNull(),
    receivedAt: tstz('received_at').notNull().defaultNow(),
    appliedAt: tstz('applied_at'),
    outcome: varchar('outcome', { length: 20 }),
    error: varchar('error', { length: 300 }).notNull().default(''),
  },
  (t) => [
    uniqueIndex('check_callback_inbox_event').on(t.provider, t.eventId),
    index('check_callback_inbox_pending')
      .on(t.caseActivityId, t.id)
      .where(sql`${t.appliedAt} is null`),
    index('check_callback_inbox_pending_customer')
      .on(t.customerId, t.id)
      .where(sql`${t.appliedAt} is null`),
  ],
);
