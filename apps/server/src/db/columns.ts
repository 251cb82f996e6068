import { integer, timestamp } from 'drizzle-orm/pg-core';

/** `timestamptz` as a JS Date. */
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** created_at with a default of now(). */
export const createdAt = () => tstz('created_at').notNull().defaultNow();

/** Integer identity id (by default, so fixtures may choose one). */
export const idColumn = () => integer('id').generatedByDefaultAsIdentity();

/** The tenant column every tenant-owned table carries (first in its keys and indexes). */
export const customerIdColumn = () => integer('customer_id').notNull();
