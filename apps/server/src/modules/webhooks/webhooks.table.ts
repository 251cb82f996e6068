import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { customers } from '../customers/customers.table.js';

/**
 * Where a customer's own systems hear of events (issue 33): a URL, the events it subscribed to,
 * and its signing secret (sealed, purpose 'webhook_secret'; shown once). Disabled by its
 * administrator, or by the system after a delivery failed for 24 hours.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    url: varchar('url', { length: 500 }).notNull(),
    description: varchar('description', { length: 200 }).notNull().default(''),
    events: text('events').array().notNull(),
    secret: text('secret').notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    /** Why the system disabled it ('' when enabled, or disabled by a person). */
    disabledReason: varchar('disabled_reason', { length: 200 }).notNull().default(''),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.id] })],
);

/**
 * One event sent (or to send) to one endpoint, with its attempts' outcome: pending, delivered
 * (a 2xx answer) or failed (24 hours of retries used up). Kept as the endpoint's log.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    customerId: customerIdColumn(),
    id: idColumn(),
    endpointId: integer('endpoint_id').notNull(),
    event: varchar('event', { length: 40 }).notNull(),
    /** The event's id as sent (`evt_...`): a receiver de-duplicates on it. */
    eventId: varchar('event_id', { length: 40 }).notNull(),
    payload: jsonb('payload').notNull(),
    status: varchar('status', { length: 20 }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** The last attempt's HTTP status (null: none, or no answer). */
    responseStatus: integer('response_status'),
    responseExcerpt: varchar('response_excerpt', { length: 500 }).notNull().default(''),
    latencyMs: integer('latency_ms'),
    error: varchar('error', { length: 200 }).notNull().default(''),
    createdAt: createdAt(),
    lastAttemptAt: tstz('last_attempt_at'),
    nextAttemptAt: tstz('next_attempt_at'),
    deliveredAt: tstz('delivered_at'),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    foreignKey({
      columns: [t.customerId, t.endpointId],
      foreignColumns: [webhookEndpoints.customerId, webhookEndpoints.id],
    }).onDelete('cascade'),
    index('webhook_deliveries_endpoint_idx').on(t.customerId, t.endpointId, t.createdAt),
    // the deliveries the retention run has still to blank (retention/expiry.ts): a blanked one
    // (its payload EXPIRED_PAYLOAD, no excerpt) leaves it, so the hourly run never reads it again
    index('webhook_deliveries_unexpired_idx')
      .on(t.customerId, t.endpointId, t.createdAt)
      .where(
        sql`status <> 'pending' and (response_excerpt <> '' or payload <> '{"redacted": "retention"}'::jsonb)`,
      ),
  ],
);
