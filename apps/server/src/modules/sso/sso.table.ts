import { sql } from 'drizzle-orm';
import {
  boolean,
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
 * A customer's sign-in through its identity provider (OpenID Connect, issue 30): one per
 * customer. The client secret is kept here sealed (platform/sealed-secrets.ts, as TOTP secrets
 * are) and never answered (the API says only whether one is set). Staff whose email domain is in
 * `allowed_domains` start their sign-in here.
 */
export const customerSsoConfigs = pgTable(
  'customer_sso_configs',
  {
    customerId: customerIdColumn(),
    id: idColumn(),
    issuer: varchar('issuer', { length: 500 }).notNull(),
    clientId: varchar('client_id', { length: 255 }).notNull(),
    clientSecret: text('client_secret').notNull().default(''),
    allowedDomains: text('allowed_domains').array().notNull().default(sql`'{}'::text[]`),
    passwordAllowed: boolean('password_allowed').notNull().default(true),
    enabled: boolean('enabled').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
    updatedByName: varchar('updated_by_name', { length: 200 }).notNull().default(''),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    uniqueIndex('customer_sso_configs_customer_idx').on(t.customerId),
    foreignKey({ columns: [t.customerId], foreignColumns: [customers.id] }).onDelete('cascade'),
  ],
);

/**
 * A sign-in under way (authorization code flow with PKCE): found by the hash of its `state`,
 * which carries the customer id in clear before its random part. Single use (`used_at`), short
 * lived (`expires_at`), bound to the browser that started it (hash of its cookie). While the
 * product's own TOTP code is awaited it holds the user it identified (`user_id`).
 */
export const ssoLoginStates = pgTable(
  'sso_login_states',
  {
    customerId: customerIdColumn(),
    id: idColumn(),
    stateHash: varchar('state_hash', { length: 64 }).notNull(),
    browserHash: varchar('browser_hash', { length: 64 }).notNull().default(''),
    codeVerifier: varchar('code_verifier', { length: 128 }).notNull(),
    nonce: varchar('nonce', { length: 128 }).notNull(),
    redirectUri: varchar('redirect_uri', { length: 1000 }).notNull(),
    nextPath: varchar('next_path', { length: 2000 }),
    userId: integer('user_id'),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    uniqueIndex('sso_login_states_state_idx').on(t.customerId, t.stateHash),
    index('sso_login_states_expiry_idx').on(t.customerId, t.expiresAt),
    foreignKey({ columns: [t.customerId], foreignColumns: [customers.id] }).onDelete('cascade'),
  ],
);
