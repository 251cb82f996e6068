import { index, integer, pgTable, primaryKey, text, varchar } from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { customers } from '../customers/customers.table.js';
import { productUsers } from '../users/users.table.js';

/**
 * A customer's API key (issue 33): a bearer token its own systems send to the same /api/
 * endpoints, acting for the customer with exactly `scopes` (permission strings). The secret is
 * shown once; only its keyed SHA-256 (`secret_hash`, api-keys.service.ts) is kept. Revoked keys
 * stay (their history), with `revoked_at`.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    name: varchar('name', { length: 100 }).notNull(),
    /** The key's first characters, shown in lists so a key can be recognised. */
    prefix: varchar('prefix', { length: 16 }).notNull(),
    /** Hex HMAC-SHA256 of the whole key under the installation's api-key pepper. */
    secretHash: varchar('secret_hash', { length: 64 }).notNull(),
    scopes: text('scopes').array().notNull(),
    createdById: integer('created_by_id').references(() => productUsers.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
    lastUsedAt: tstz('last_used_at'),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    // not unique: Citus enforces uniqueness per node only; 256 random bits make a clash moot
    index('api_keys_secret_hash_idx').on(t.secretHash),
    index('api_keys_created_idx').on(t.customerId, t.createdAt),
  ],
);
