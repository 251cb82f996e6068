import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { customers } from '../customers/customers.table.js';

/**
 * A customer's saved cards (issue 30): the payment method a confirmed setup intent saved at the
 * payments provider (its id, brand, last four digits and expiry: never the card number). One
 * default among those not removed (a partial unique index); a removed card keeps its row
 * (`removed_at`) for the payments made with it. `provider_setup_intent_id` records each setup
 * once.
 */
export const customerPaymentMethods = pgTable(
  'customer_payment_methods',
  {
    customerId: customerIdColumn(),
    id: idColumn(),
    provider: varchar('provider', { length: 20 }).notNull(),
    providerPaymentMethodId: varchar('provider_payment_method_id', { length: 100 }).notNull(),
    providerSetupIntentId: varchar('provider_setup_intent_id', { length: 100 }).notNull(),
    brand: varchar('brand', { length: 20 }).notNull(),
    last4: varchar('last4', { length: 4 }).notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdById: integer('created_by_id'),
    createdAt: createdAt(),
    removedAt: tstz('removed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    uniqueIndex('customer_payment_methods_setup_idx').on(t.customerId, t.providerSetupIntentId),
    uniqueIndex('customer_payment_methods_default_idx')
      .on(t.customerId)
      .where(sql`${t.isDefault} and ${t.removedAt} is null`),
    index('customer_payment_methods_customer_idx').on(t.customerId, t.createdAt),
    foreignKey({ columns: [t.customerId], foreignColumns: [customers.id] }).onDelete('cascade'),
  ],
);

/**
 * A customer's payment settings (one row, made on first use): its billing email and its customer
 * at the payments provider (the cards are saved to it; off-session charges name it).
 */
export const customerPaymentSettings = pgTable(
  'customer_payment_settings',
  {
    customerId: customerIdColumn(),
    id: idColumn(),
    billingEmail: varchar('billing_email', { length: 100 }).notNull().default(''),
    provider: varchar('provider', { length: 20 }),
    providerCustomerId: varchar('provider_customer_id', { length: 100 }),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    uniqueIndex('customer_payment_settings_customer_idx').on(t.customerId),
    foreignKey({ columns: [t.customerId], foreignColumns: [customers.id] }).onDelete('cascade'),
  ],
);
