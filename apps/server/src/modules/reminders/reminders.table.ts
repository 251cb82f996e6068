import {
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { cases } from '../cases/cases.table.js';
import { customers } from '../customers/customers.table.js';

/**
 * A case's invitation (issue 33): when it went (or was last resent: `round` counts the resends),
 * when it expires, and when it expired with the activities that then moved to the customer. A
 * case without a row was invited when it was opened (its `created_at`).
 */
export const caseInvitations = pgTable(
  'case_invitations',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    caseId: integer('case_id').notNull(),
    round: smallint('round').notNull().default(0),
    invitedAt: tstz('invited_at').notNull(),
    expiredAt: tstz('expired_at'),
    /** The activities the expiry moved to the customer (a resend moves them back). */
    expiredActivityIds: jsonb('expired_activity_ids').$type<number[]>().notNull().default([]),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.caseId] }),
    foreignKey({
      columns: [t.customerId, t.caseId],
      foreignColumns: [cases.customerId, cases.id],
    }).onDelete('cascade'),
  ],
);

/**
 * One automatic reminder of a case's invitation: its number in the invitation's round under a
 * unique key, so two server processes never send the same reminder twice (the second insert
 * finds the first's row).
 */
export const caseReminders = pgTable(
  'case_reminders',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    caseId: integer('case_id').notNull(),
    round: smallint('round').notNull(),
    number: smallint('number').notNull(),
    /** 'email' or 'email,sms'. */
    channels: varchar('channels', { length: 20 }).notNull(),
    sentAt: tstz('sent_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    uniqueIndex('case_reminders_key').on(t.customerId, t.caseId, t.round, t.number),
    foreignKey({
      columns: [t.customerId, t.caseId],
      foreignColumns: [cases.customerId, cases.id],
    }).onDelete('cascade'),
  ],
);

/**
 * Text messages kept locally (the SMS simulator, the default provider), beside the email outbox:
 * ops read them at /api/ops/outbox-sms/.
 */
export const outboxSms = pgTable(
  'outbox_sms',
  {
    id: idColumn().primaryKey(),
    /** E.164. */
    to: varchar('to', { length: 20 }).notNull(),
    body: text('body').notNull(),
    /** The Notify template it would use, and the sender's brand. */
    templateId: varchar('template_id', { length: 64 }).notNull().default(''),
    brand: varchar('brand', { length: 100 }).notNull().default(''),
    reference: varchar('reference', { length: 100 }).notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_sms_created_idx').on(t.createdAt)],
);
