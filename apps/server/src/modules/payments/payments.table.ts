import { sql } from 'drizzle-orm';
import {
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { caseActivities } from '../activities/activities.table.js';

/**
 * One payment intent per awaited top-up (Stripe's PaymentIntent, mirrored): its public id is the
 * payment portal's link (/payment-portal/{public_id}); amounts in pence. `status` is the
 * provider's, `outcome` what the top-up came to (settled by the webhook). The provider's intent is
 * made by a job enqueued with the intent (never in a request or a transaction).
 */
export const paymentIntents = pgTable(
  'payment_intents',
  {
    customerId: customerIdColumn(),
    id: idColumn(),
    publicId: varchar('public_id', { length: 40 }).notNull(),
    /**
     * What the intent pays for: `top_up`, a case activity's top-up (case_id and case_activity_id
     * set), or another module's purpose (intent-purposes.ts: a self-initiated registration, a
     * licence application's fee) named by `purpose_id`, with no case yet.
     */
    purpose: varchar('purpose', { length: 30 }).notNull().default('top_up'),
    purposeId: integer('purpose_id'),
    caseId: integer('case_id'),
    caseActivityId: integer('case_activity_id'),
    amountPence: integer('amount_pence').notNull(),
    currency: varchar('currency', { length: 3 }).notNull().default('gbp'),
    reason: varchar('reason', { length: 200 }).notNull(),
    /** `simulator` or `stripe`: who holds the intent. */
    provider: varchar('provider', { length: 20 }).notNull(),
    providerIntentId: varchar('provider_intent_id', { length: 100 }),
    clientSecret: varchar('client_secret', { length: 200 }),
    status: varchar('status', { length: 30 }).notNull().default('requires_payment_method'),
    /** awaiting, paid or declined. */
    outcome: varchar('outcome', { length: 20 }).notNull().default('awaiting'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    uniqueIndex('payment_intents_public_id_idx').on(t.publicId),
    uniqueIndex('payment_intents_provider_intent_idx').on(t.providerIntentId),
    uniqueIndex('payment_intents_activity_idx').on(t.customerId, t.caseActivityId),
    // one intent awaiting payment per thing paid for (a declined one is followed by a new one)
    uniqueIndex('payment_intents_purpose_awaiting_idx')
      .on(t.customerId, t.purpose, t.purposeId)
      .where(sql`outcome = 'awaiting' and purpose_id is not null`),
    index('payment_intents_purpose_idx').on(t.customerId, t.purpose, t.purposeId),
    index('payment_intents_created_idx').on(t.customerId, t.createdAt),
    // operations' list of every customer's portal payments, newest first (issue 29)
    index('payment_intents_all_created_idx').on(t.createdAt),
    foreignKey({
      columns: [t.customerId, t.caseActivityId],
      foreignColumns: [caseActivities.customerId, caseActivities.id],
    }).onDelete('cascade'),
  ],
);

/**
 * Each payment attempt the provider reported through its webhook (succeeded or failed), in pence.
 * The event id is unique: an event delivered twice is stored once.
 */
export const payments = pgTable(
  'payments',
  {
    customerId: customerIdColumn(),
    id: idColumn(),
    paymentIntentId: integer('payment_intent_id').notNull(),
    caseId: integer('case_id'),
    caseActivityId: integer('case_activity_id'),
    amountPence: integer('amount_pence').notNull(),
    currency: varchar('currency', { length: 3 }).notNull().default('gbp'),
    /** succeeded or failed. */
    status: varchar('status', { length: 20 }).notNull(),
    failureCode: varchar('failure_code', { length: 100 }),
    failureMessage: text('failure_message'),
    providerEventId: varchar('provider_event_id', { length: 100 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    uniqueIndex('payments_event_idx').on(t.providerEventId),
    index('payments_created_idx').on(t.customerId, t.createdAt),
    foreignKey({
      columns: [t.customerId, t.paymentIntentId],
      foreignColumns: [paymentIntents.customerId, paymentIntents.id],
    }).onDelete('cascade'),
  ],
);
