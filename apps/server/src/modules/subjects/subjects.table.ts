import { sql } from 'drizzle-orm';
import {
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { customers } from '../customers/customers.table.js';
import { subjectUsers } from '../users/users.table.js';

/**
 * A customer's record of a person it checks: unique by email within the customer. `user_id`
 * links it to the person's login (`subject_users`, one per email across the product), so one
 * person held by several customers has one account that sees the cases of each.
 */
export const subjects = pgTable(
  'subjects',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    userId: integer('user_id')
      .notNull()
      .references(() => subjectUsers.id),
    email: varchar('email', { length: 254 }).notNull(),
    firstName: varchar('first_name', { length: 60 }).notNull().default(''),
    lastName: varchar('last_name', { length: 60 }).notNull().default(''),
    middlename: varchar('middlename', { length: 60 }).notNull().default(''),
    dob: date('dob', { mode: 'string' }),
    phoneNumber: varchar('phone_number', { length: 30 }).notNull().default(''),
    /** Archived by the customer (subjects.archive); kept for its cases. */
    archivedAt: tstz('archived_at'),
    /** Set when merged into another subject as a duplicate. */
    mergedIntoId: integer('merged_into_id'),
    // Lower-cased copies that free-text search matches by prefix, each with a
    // (customer_id, col text_pattern_ops) btree. Plain columns, not lower() in the query: under
    // row-level security PostgreSQL uses an index only for leakproof quals, and neither lower()
    // nor LIKE is leakproof (~>=~ and ~<~ on a column are), so a trigram index would be ignored.
    searchFirst: text('search_first').generatedAlwaysAs(sql`lower(first_name)`),
    searchLast: text('search_last').generatedAlwaysAs(sql`lower(last_name)`),
    searchFull: text('search_full').generatedAlwaysAs(
      sql`lower((first_name)::text || ' ' || (last_name)::text)`,
    ),
    searchEmail: text('search_email').generatedAlwaysAs(sql`lower(email)`),
    /** The email's domain, so that `acme` or `@acme` finds everyone at acme.com. */
    searchDomain: text('search_domain').generatedAlwaysAs(sql`split_part(lower(email), '@', 2)`),
    /**
     * The email without dots and a +tag in its local part (`k.i.m+x@a.test` → `kim@a.test`): the
     * duplicate rule and screen compare it, on its own index.
     */
    emailNormalised: text('email_normalised').generatedAlwaysAs(
      sql`split_part(replace(split_part(lower(email), '@', 1), '.', ''), '+', 1) || '@' || split_part(lower(email), '@', 2)`,
    ),
    createdAt: createdAt(),
    /**
     * The product user who added it (issue 30), from the transaction's acting user: a user
     * limited to segments keeps seeing a subject they added before it has a case (db/security.ts,
     * segment_scope).
     */
    createdById: integer('created_by_id').default(
      sql`nullif(current_setting('app.user_id', true), '')::integer`,
    ),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('subjects_id_idx').on(t.id),
    uniqueIndex('subjects_customer_email_unique').on(t.customerId, sql`lower(${t.email})`),
    index('subjects_user_idx').on(t.userId),
    index('subjects_name_idx').on(t.customerId, t.lastName, t.firstName),
    index('subjects_search_first_idx').on(t.customerId, t.searchFirst.op('text_pattern_ops')),
    index('subjects_search_last_idx').on(t.customerId, t.searchLast.op('text_pattern_ops')),
    index('subjects_search_full_idx').on(t.customerId, t.searchFull.op('text_pattern_ops')),
    index('subjects_search_email_idx').on(t.customerId, t.searchEmail.op('text_pattern_ops')),
    index('subjects_search_domain_idx').on(t.customerId, t.searchDomain.op('text_pattern_ops')),
    index('subjects_email_normalised_idx').on(t.customerId, t.emailNormalised),
  ],
);
