import { integer, pgTable, varchar } from 'drizzle-orm/pg-core';
import { createdAt, idColumn, tstz } from '../../db/columns.js';

/** A planned outage: the API answers 503 to non-ops calls between start and end. */
export const maintenanceWindows = pgTable('maintenance_windows', {
  id: idColumn().primaryKey(),
  start: tstz('start').notNull(),
  end: tstz('end').notNull(),
  warningStart: tstz('warning_start').notNull(),
  reason: varchar('reason', { length: 200 }).notNull().default(''),
  createdBy: integer('created_by'),
  createdAt: createdAt(),
});
