import { bigint, index, integer, jsonb, pgTable, unique, varchar } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from '../../db/columns.js';

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

/**
 * Refused requests (403), one row per actor, customer, route and window with a count, kept
 * apart from the activity trail so a client looping on a refused call cannot flood the audit
 * log. The customer's staff with audit.view_auditaction see theirs, ops see all.
 */
export const securityRefusals = pgTable(
  'security_refusals',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    customerId: integer('customer_id'),
    actorType: varchar('actor_type', { length: 20 }),
    actorId: integer('actor_id'),
    actorName: varchar('actor_name', { length: 200 }).notNull().default(''),
    /** Method and route pattern, e.g. `GET /api/cases/:id/` (not the raw URL). */
    route: varchar('route', { length: 200 }).notNull(),
    /** The path of the last refusal (no query string), e.g. `/api/cases/12/`. */
    path: varchar('path', { length: 200 }).notNull().default(''),
    /** Why the last refusal of the window was refused. */
    reason: varchar('reason', { length: 200 }).notNull().default(''),
    windowStart: tstz('window_start').notNull(),
    firstSeenAt: tstz('first_seen_at').notNull(),
    lastSeenAt: tstz('last_seen_at').notNull(),
    count: integer('count').notNull().default(1),
    /** Address and request id of the last refusal. */
    ip: varchar('ip', { length: 64 }),
    requestId: varchar('request_id', { length: 64 }),
  },
  (t) => [
    unique('security_refusals_window_key')
      .on(t.customerId, t.actorType, t.actorId, t.route, t.windowStart)
      .nullsNotDistinct(),
    index('security_refusals_customer_idx').on(t.customerId, t.lastSeenAt),
  ],
);
