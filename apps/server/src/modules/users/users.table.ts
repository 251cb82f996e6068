import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { customers } from '../customers/customers.table.js';

/**
 * Customer staff and ops staff (customer_id null). RLS: own customer's users, or the `all`
 * scope. Usernames are unique case-insensitively across the product (login is global).
 */
export const productUsers = pgTable(
  'product_users',
  {
    id: idColumn().primaryKey(),
    customerId: integer('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    username: varchar('username', { length: 150 }).notNull(),
    email: varchar('email', { length: 254 }).notNull(),
    firstName: varchar('first_name', { length: 60 }).notNull().default(''),
    lastName: varchar('last_name', { length: 60 }).notNull().default(''),
    jobTitle: varchar('job_title', { length: 100 }).notNull().default(''),
    darkMode: boolean('dark_mode').notNull().default(false),
    notifications: boolean('notifications').notNull().default(true),
    avatar: text('avatar'),
    passwordHash: text('password_hash'),
    totpSecret: text('totp_secret'),
    totpPendingSecret: text('totp_pending_secret'),
    totpEnabled: boolean('totp_enabled').notNull().default(false),
    /** Last accepted TOTP time step: a code of this step or earlier is a replay. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    termsAgreedAt: tstz('terms_agreed_at'),
    isActive: boolean('is_active').notNull().default(true),
    passwordChangedAt: tstz('password_changed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('product_users_username_unique').on(sql`lower(${t.username})`),
    index('product_users_customer_idx').on(t.customerId, t.id),
  ],
);

/** A named set of permission strings. customer_id null = a built-in role (ops). */
export const roles = pgTable(
  'roles',
  {
    id: idColumn().primaryKey(),
    customerId: integer('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 100 }).notNull(),
    permissions: text('permissions').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
  },
  (t) => [index('roles_customer_idx').on(t.customerId, t.id)],
);

export const productUserRoles = pgTable(
  'product_user_roles',
  {
    customerId: integer('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => productUsers.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] })],
);

/** A person checked by a customer; logs in with email to the subject portal once claimed. */
export const subjectUsers = pgTable(
  'subject_users',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    email: varchar('email', { length: 254 }).notNull(),
    firstName: varchar('first_name', { length: 60 }).notNull().default(''),
    lastName: varchar('last_name', { length: 60 }).notNull().default(''),
    middlename: varchar('middlename', { length: 60 }).notNull().default(''),
    darkMode: boolean('dark_mode').notNull().default(false),
    dob: date('dob', { mode: 'string' }),
    canChangeDob: boolean('can_change_dob').notNull().default(true),
    phoneNumber: varchar('phone_number', { length: 30 }).notNull().default(''),
    termsAgreedAt: tstz('terms_agreed_at'),
    dbsEmailNotifications: boolean('dbs_email_notifications').notNull().default(true),
    dvlaReconsents: jsonb('dvla_reconsents').$type<unknown[]>().notNull().default([]),
    passwordHash: text('password_hash'),
    isActive: boolean('is_active').notNull().default(true),
    passwordChangedAt: tstz('password_changed_at'),
    /** Archived by the customer (subjects.archive); kept for its cases. */
    archivedAt: tstz('archived_at'),
    /** Set when merged into another subject as a duplicate. */
    mergedIntoId: integer('merged_into_id'),
    // Lower-cased copies that free-text search matches by prefix, each with a
    // (customer_id, col text_pattern_ops) btree. Plain columns, not lower() in the query: under
    // row-level security PostgreSQL uses an index only for leakproof quals, and neither lower()
    // nor LIKE is leakproof (~>=~ and ~<~ on a column are), so a trigram index would be ignored.
    searchFirst: text('search_first').generatedAlwaysAs(sql`lower(first_name)`),
    searchLast: text('search_last').generatedAlwaysAs(sql`lower(last_name)`),
    searchFull: text('search_full').generatedAlwaysAs(
      sql`lower((first_name)::text || ' ' || (last_name)::text)`,
    ),
    searchEmail: text('search_email').generatedAlwaysAs(sql`lower(email)`),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    uniqueIndex('subject_users_id_unique').on(t.id),
    uniqueIndex('subject_users_email_unique').on(sql`lower(${t.email})`),
    index('subject_users_name_idx').on(t.customerId, t.lastName, t.firstName),
    index('subject_users_search_first_idx').on(t.customerId, t.searchFirst.op('text_pattern_ops')),
    index('subject_users_search_last_idx').on(t.customerId, t.searchLast.op('text_pattern_ops')),
    index('subject_users_search_full_idx').on(t.customerId, t.searchFull.op('text_pattern_ops')),
    index('subject_users_search_email_idx').on(t.customerId, t.searchEmail.op('text_pattern_ops')),
  ],
);
