import {
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { customers } from '../customers/customers.table.js';

/**
 * One reminder of the expiry calendar (issue 33): an item (its kind and key: a consent, a case's
 * passport or licence, a right-to-work check, an issued licence) expiring on a date, reminded at
 * one step (90, 30 or 7 days before) to the subject and the customer. The unique key makes each
 * step go once, however many job runs or server processes see it; a new date (a renewed
 * document) starts its steps afresh.
 */
export const expiryReminders = pgTable(
  'expiry_reminders',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    /** An ExpiryKind of @kestrel/domain. */
    kind: varchar('kind', { length: 20 }).notNull(),
    itemKey: varchar('item_key', { length: 40 }).notNull(),
    subjectId: integer('subject_id').notNull(),
    expiresOn: date('expires_on', { mode: 'string' }).notNull(),
    /** Days before the date (one of EXPIRY_REMINDER_DAYS). */
    step: smallint('step').notNull(),
    sentAt: tstz('sent_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    uniqueIndex('expiry_reminders_key').on(t.customerId, t.kind, t.itemKey, t.expiresOn, t.step),
    index('expiry_reminders_sent_idx').on(t.customerId, t.sentAt),
  ],
);
