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
import { customers } from '../customers/customers.table.js';

/**
 * What customers pay for their checks (issue 29; their payment settings come with the
 * customer-administration issue): one row per payment the provider took, in pence. `case_id` is
 * the case paid for, when one is.
 */
export const productPayments = pgTable(
  'product_payments',
  {
    customerId: customerIdColumn(),
    id: idColumn(),
    caseId: integer('case_id'),
    description: varchar('description', { length: 200 }).notNull(),
    amountPence: integer('amount_pence').notNull(),
    currency: varchar('currency', { length: 3 }).notNull().default('gbp'),
    provider: varchar('provider', { length: 20 }).notNull(),
    providerPaymentId: varchar('provider_payment_id', { length: 100 }),
    /** succeeded, failed or processing. */
    status: varchar('status', { length: 20 }).notNull(),
    /**
     * A case's charge (issue 30): its attempt (1, then one more per retry), the card charged
     * (customer_payment_methods; null when none was saved), the provider's idempotency key and
     * its decline (code and message).
     */
    attempt: integer('attempt').notNull().default(1),
    paymentMethodId: integer('payment_method_id'),
    idempotencyKey: varchar('idempotency_key', { length: 100 }),
    failureCode: varchar('failure_code', { length: 50 }),
    failureMessage: text('failure_message'),
    /**
     * The subscription's billing period (subscription_charges' id) an attempt of no case charges
     * (issue 31), read by PostgreSQL from its idempotency key,
     * `kestrel-subscription-{customer}-{charge}` then `-{attempt}` from the second attempt
     * (case-payment.ts): every such row has it, however written. A period's attempts are read by
     * it through product_payments_subscription_charge_idx.
     */
    subscriptionChargeId: integer('subscription_charge_id').generatedAlwaysAs(
      sql`case when case_id is null and idempotency_key ~ '^kestrel-subscription-[0-9]{1,9}-[0-9]{1,9}(-[0-9]{1,9})?$' and split_part(idempotency_key, '-', 3) = customer_id::text then split_part(idempotency_key, '-', 4)::integer end`,
    ),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    // one row per attempt at a case's charge (rows of no case are not concerned)
    uniqueIndex('product_payments_case_attempt_idx').on(t.customerId, t.caseId, t.attempt),
    // one row per attempt at a subscription's billing period: a period's attempts, latest first
    uniqueIndex('product_payments_subscription_charge_idx')
      .on(t.customerId, t.subscriptionChargeId, t.attempt)
      .where(sql`${t.subscriptionChargeId} is not null`),
    index('product_payments_created_idx').on(t.createdAt),
    index('product_payments_customer_created_idx').on(t.customerId, t.createdAt),
    foreignKey({ columns: [t.customerId], foreignColumns: [customers.id] }).onDelete('cascade'),
  ],
);

/**
 * Refunds of a portal payment (`source` portal: `payment_id` a payment intent's id) or a product
 * payment (`source` product), made through the payments provider. A refund is stored `pending`
 * before the provider is asked and settled after; the key is the caller's Idempotency-Key (a
 * repeated call answers the same refund). Pending and succeeded refunds count against what was
 * paid.
 */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    customerId: customerIdColumn(),
    id: idColumn(),
    source: varchar('source', { length: 10 }).notNull(),
    paymentId: integer('payment_id').notNull(),
    amountPence: integer('amount_pence').notNull(),
    idempotencyKey: varchar('idempotency_key', { length: 100 }).notNull(),
    /** pending, succeeded or failed. */
    status: varchar('status', { length: 20 }).notNull().default('pending'),
    providerRefundId: varchar('provider_refund_id', { length: 100 }),
    failureMessage: text('failure_message'),
    createdById: integer('created_by_id'),
    createdByName: varchar('created_by_name', { length: 200 }).notNull().default(''),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    uniqueIndex('payment_refunds_key_idx').on(
      t.customerId,
      t.source,
      t.paymentId,
      t.idempotencyKey,
    ),
    index('payment_refunds_payment_idx').on(t.customerId, t.source, t.paymentId),
    foreignKey({ columns: [t.customerId], foreignColumns: [customers.id] }).onDelete('cascade'),
  ],
);
