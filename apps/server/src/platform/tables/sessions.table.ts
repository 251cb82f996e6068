import { bigint, index, integer, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from '../../db/columns.js';

/**
 * Server-side sessions. Only the SHA-256 of the opaque token is stored. Not tenant-owned (an
 * anonymous session has no customer); `customer_id` is the customer the session acts for.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull().unique(),
    csrfToken: varchar('csrf_token', { length: 64 }).notNull(),
    userType: varchar('user_type', { length: 20 }),
    userId: integer('user_id'),
    customerId: integer('customer_id'),
    createdAt: createdAt(),
    lastSeenAt: tstz('last_seen_at').notNull().defaultNow(),
    /** When the user authenticated (absolute timeout counts from here). */
    authenticatedAt: tstz('authenticated_at'),
    ip: varchar('ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 300 }),
  },
  (t) => [index('sessions_user_idx').on(t.userType, t.userId)],
);

/** Single-use tokens sent by email: password reset and subject account claim. */
export const accountTokens = pgTable('account_tokens', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  tokenHash: varchar('token_hash', { length: 64 }).notNull().unique(),
  purpose: varchar('purpose', { length: 20 }).notNull(),
  userType: varchar('user_type', { length: 20 }).notNull(),
  userId: integer('user_id').notNull(),
  customerId: integer('customer_id'),
  expiresAt: tstz('expires_at').notNull(),
  usedAt: tstz('used_at'),
  createdAt: createdAt(),
});

/** Fixed-window attempt counters shared by every server process. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: tstz('window_start').notNull(),
  count: integer('count').notNull(),
});

/**
 * Secrets the server processes share, made once by the first process that needs one (e.g. the
 * key that signs anonymous visitors' CSRF tokens). Read only in the cross-tenant context.
 */
export const serverSecrets = pgTable('server_secrets', {
  name: varchar('name', { length: 50 }).primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});
