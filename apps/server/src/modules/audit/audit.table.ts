import { bigint, index, integer, jsonb, pgTable, varchar } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns.js';

/**
 * Who did what to which object. Insert-only for the application role (no UPDATE/DELETE grant).
 * customer_id is null for actions outside any customer (ops-level, unknown-account logins).
 */
export const auditActions = pgTable(
  'audit_actions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    customerId: integer('customer_id'),
    actorType: varchar('actor_type', { length: 20 }),
    actorId: integer('actor_id'),
    actorName: varchar('actor_name', { length: 200 }).notNull().default(''),
    verb: varchar('verb', { length: 50 }).notNull(),
    contentType: varchar('content_type', { length: 100 }).notNull().default(''),
    objectId: varchar('object_id', { length: 64 }),
    objectRepr: varchar('object_repr', { length: 200 }).notNull().default(''),
    changes: jsonb('changes').$type<Record<string, unknown>>().notNull().default({}),
    ip: varchar('ip', { length: 64 }),
    requestId: varchar('request_id', { length: 64 }),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_actions_customer_idx').on(t.customerId, t.id),
    index('audit_actions_object_idx').on(t.customerId, t.contentType, t.objectId),
  ],
);
