import { sql } from 'drizzle-orm';
import {
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { customers } from '../customers/customers.table.js';

/**
 * Trust-to-ride sessions (issue 27): a date and time, a place and a number of places, run by
 * operations for a customer's subjects (/ops/trust-2-ride). A customer's subjects see its
 * sessions (to book one); operations manage them across customers.
 */
export const trustToRideSessions = pgTable(
  'trust_to_ride_sessions',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    startsAt: tstz('starts_at').notNull(),
    place: varchar('place', { length: 200 }).notNull(),
    capacity: integer('capacity').notNull(),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('trust_to_ride_sessions_id_idx').on(t.id),
    index('trust_to_ride_sessions_starts_idx').on(t.customerId, t.startsAt, t.id),
    index('trust_to_ride_sessions_all_starts_idx').on(t.startsAt, t.id),
    check('trust_to_ride_sessions_capacity', sql`${t.capacity} between 1 and 500`),
  ],
);

/**
 * A place booked on a session for one trust-to-ride activity (one booking per activity), and
 * its attendance once operations record it ('attended' or 'did-not-attend'; null until then).
 * `case_id` lets a subject read the bookings of its own cases (the subject policy by case).
 */
export const trustToRideBookings = pgTable(
  'trust_to_ride_bookings',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    sessionId: integer('session_id').notNull(),
    caseId: integer('case_id').notNull(),
    caseActivityId: integer('case_activity_id').notNull(),
    attendance: varchar('attendance', { length: 20 }),
    bookedAt: tstz('booked_at').notNull().defaultNow(),
    recordedAt: tstz('recorded_at'),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    foreignKey({
      columns: [t.customerId, t.sessionId],
      foreignColumns: [trustToRideSessions.customerId, trustToRideSessions.id],
    }).onDelete('cascade'),
    uniqueIndex('trust_to_ride_bookings_activity_unique').on(t.customerId, t.caseActivityId),
    index('trust_to_ride_bookings_session_idx').on(t.customerId, t.sessionId, t.id),
    check(
      'trust_to_ride_bookings_attendance',
      sql`${t.attendance} is null or ${t.attendance} in ('attended', 'did-not-attend')`,
    ),
  ],
);
