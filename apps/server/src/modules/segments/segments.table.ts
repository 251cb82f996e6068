import { foreignKey, index, integer, pgTable, primaryKey, varchar } from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { customers } from '../customers/customers.table.js';
import { productUsers } from '../users/users.table.js';

/**
 * A division of a customer's organisation (a site, a department, a region) (issue 30): its
 * employer name (the 'segment employer name' source of an activity's configuration), address
 * and contact. Its processes (`processes.segment_id`) and its users (`segment_users`) make it:
 * a user limited to segments sees only the cases of their segments' processes
 * (segments/segment-scope.ts).
 */
export const segments = pgTable(
  'segments',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    name: varchar('name', { length: 100 }).notNull(),
    employerName: varchar('employer_name', { length: 200 }).notNull().default(''),
    lineOne: varchar('line_one', { length: 200 }).notNull().default(''),
    lineTwo: varchar('line_two', { length: 200 }).notNull().default(''),
    town: varchar('town', { length: 100 }).notNull().default(''),
    postcode: varchar('postcode', { length: 20 }).notNull().default(''),
    contactName: varchar('contact_name', { length: 120 }).notNull().default(''),
    contactEmail: varchar('contact_email', { length: 254 }).notNull().default(''),
    /** E.164, or '' when not known. */
    contactPhone: varchar('contact_phone', { length: 20 }).notNull().default(''),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('segments_name_idx').on(t.customerId, t.name),
  ],
);

/** The users of a segment: a product user with one or more rows (and not an administrator) is limited. */
export const segmentUsers = pgTable(
  'segment_users',
  {
    customerId: customerIdColumn(),
    segmentId: integer('segment_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => productUsers.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.segmentId, t.userId] }),
    foreignKey({
      columns: [t.customerId, t.segmentId],
      foreignColumns: [segments.customerId, segments.id],
    }).onDelete('cascade'),
    index('segment_users_user_idx').on(t.customerId, t.userId),
  ],
);
