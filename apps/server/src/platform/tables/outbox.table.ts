import { pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { createdAt, idColumn } from '../../db/columns.js';

/** Emails kept locally (the default mail provider); ops staff and developers read them. */
export const outboxEmails = pgTable('outbox_emails', {
  id: idColumn().primaryKey(),
  to: varchar('to', { length: 254 }).notNull(),
  subject: varchar('subject', { length: 300 }).notNull(),
  text: text('text').notNull(),
  html: text('html'),
  createdAt: createdAt(),
});
