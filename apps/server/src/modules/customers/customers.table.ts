import {
  boolean,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn } from '../../db/columns.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';

/** A tenant. RLS: a session sees only its own customer row (ops lists use the `all` scope). */
export const customers = pgTable('customers', {
  id: idColumn().primaryKey(),
  name: varchar('name', { length: 200 }).notNull(),
  demoMode: boolean('demo_mode').notNull().default(false),
  isActive: boolean('is_active').notNull().default(true),
  /** The white-label brand its people see (BRAND_DETAILS id of @kestrel/domain). */
  brand: varchar('brand', { length: 20 }).notNull().default('kestrel'),
  /** Who operations talk to at the customer ('' when not known). */
  contactName: varchar('contact_name', { length: 120 }).notNull().default(''),
  contactEmail: varchar('contact_email', { length: 254 }).notNull().default(''),
  /** E.164, or '' when not known. */
  contactPhone: varchar('contact_phone', { length: 20 }).notNull().default(''),
  /** The organisation's postal address ('' when not known; issue 30, /customer-account). */
  lineOne: varchar('line_one', { length: 200 }).notNull().default(''),
  lineTwo: varchar('line_two', { length: 200 }).notNull().default(''),
  town: varchar('town', { length: 100 }).notNull().default(''),
  postcode: varchar('postcode', { length: 20 }).notNull().default(''),
  /** Its staff must sign in with two-factor (TOTP): one without it is sent to set it up. */
  requireTotp: boolean('require_totp').notNull().default(false),
  createdAt: createdAt(),
});

/** Entitlements a customer holds (regportals, cycles, subject_dedup). */
export const customerEntitlements = pgTable(
  'customer_entitlements',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    entitlement: varchar('entitlement', { length: 50 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    uniqueIndex('customer_entitlements_unique').on(t.customerId, t.entitlement),
  ],
);

/** The activity types a customer may order. */
export const customerActivityTypes = pgTable(
  'customer_activity_types',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    activityTypeId: integer('activity_type_id')
      .notNull()
      .references(() => activityTypes.id),
    enabled: boolean('enabled').notNull().default(true),
    note: text('note'),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.activityTypeId] })],
);
