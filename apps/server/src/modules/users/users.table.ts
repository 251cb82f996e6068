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
import { createdAt, idColumn, tstz } from '../../db/columns.js';
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

/**
 * A person's login to the subject portal, one per email across the product (the username).
 * Customers hold their own records of the person (`subjects`, linked by `user_id`); this row
 * has no customer. It exists from the first invitation and can log in once claimed (password).
 * RLS (db/security.ts): customer staff read only the logins their subjects link to, a subject
 * only its own; creation goes through kestrel_subject_login(), never a cross-tenant read.
 */
export const subjectUsers = pgTable(
  'subject_users',
  {
    id: idColumn().primaryKey(),
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
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('subject_users_email_unique').on(sql`lower(${t.email})`)],
);
