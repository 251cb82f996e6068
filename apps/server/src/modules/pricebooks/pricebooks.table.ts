import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  foreignKey,
  integer,
  pgTable,
  primaryKey,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn } from '../../db/columns.js';
import { customers } from '../customers/customers.table.js';

/**
 * A customer's pricebook (issue 29): its prices valid from `valid_from` to `valid_to` (both
 * inclusive; null: open). One active at a time: a customer's ranges never overlap, which the
 * service checks under a per-customer lock (no exclusion constraint: PGlite has no btree_gist).
 */
export const pricebooks = pgTable(
  'pricebooks',
  {
    customerId: customerIdColumn(),
    id: idColumn(),
    name: varchar('name', { length: 200 }).notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }),
    /**
     * The customer is invoiced for its checks (issue 30): its cases are not charged to a card
     * one by one. False: each case is charged to the default card as it is created.
     */
    invoiced: boolean('invoiced').notNull().default(false),
    createdAt: createdAt(),
    createdById: integer('created_by_id'),
    createdByName: varchar('created_by_name', { length: 200 }).notNull().default(''),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    uniqueIndex('pricebooks_customer_from_idx').on(t.customerId, t.validFrom),
    check('pricebooks_dates_order', sql`${t.validTo} IS NULL OR ${t.validTo} >= ${t.validFrom}`),
    foreignKey({ columns: [t.customerId], foreignColumns: [customers.id] }).onDelete('cascade'),
  ],
);

/** A pricebook's price for a kind of check (activity type code) at a level ('' for none), in pence. */
export const pricebookPrices = pgTable(
  'pricebook_prices',
  {
    customerId: customerIdColumn(),
    id: idColumn(),
    pricebookId: integer('pricebook_id').notNull(),
    activityType: varchar('activity_type', { length: 50 }).notNull(),
    level: varchar('level', { length: 30 }).notNull().default(''),
    amountPence: integer('amount_pence').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    uniqueIndex('pricebook_prices_unique').on(t.customerId, t.pricebookId, t.activityType, t.level),
    check('pricebook_prices_amount', sql`${t.amountPence} >= 0`),
    foreignKey({
      columns: [t.customerId, t.pricebookId],
      foreignColumns: [pricebooks.customerId, pricebooks.id],
    }).onDelete('cascade'),
  ],
);
