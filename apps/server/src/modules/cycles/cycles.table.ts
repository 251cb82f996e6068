import type { BillingTrigger, SubscriptionState } from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { cases } from '../cases/cases.table.js';
import { customers } from '../customers/customers.table.js';
import { processes } from '../processes/processes.table.js';
import { subjects } from '../subjects/subjects.table.js';

/**
 * A cycle on a process (issue 31): the requirements that repeat (activity type codes) every
 * `repeat_interval` `repeat_unit`, and the billing cycle (interval, triggered). Its price is the
 * pricebook's for its requirements, read when shown and when billed (never stored).
 */
export const cycles = pgTable(
  'cycles',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    processId: integer('process_id').notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    requirements: jsonb('requirements').$type<string[]>().notNull().default([]),
    repeatInterval: smallint('repeat_interval').notNull(),
    repeatUnit: varchar('repeat_unit', { length: 10 }).$type<BillingTrigger>().notNull(),
    billingInterval: smallint('billing_interval').notNull(),
    billingTriggered: varchar('billing_triggered', { length: 10 })
      .$type<BillingTrigger>()
      .notNull(),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('cycles_id_idx').on(t.id),
    foreignKey({
      columns: [t.customerId, t.processId],
      foreignColumns: [processes.customerId, processes.id],
    }).onDelete('cascade'),
    index('cycles_process_idx').on(t.customerId, t.processId, t.name),
  ],
);

/**
 * A subject's subscription to a cycle: `next_due_at` opens a case of the cycle's process with
 * its requirements (the due job), `next_billing_at` bills the customer. Active subscriptions come
 * due; paused ones keep their dates but do not; ended ones never again. One subscription per
 * subject and cycle that has not ended.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    cycleId: integer('cycle_id').notNull(),
    subjectId: integer('subject_id').notNull(),
    state: varchar('state', { length: 10 }).$type<SubscriptionState>().notNull().default('active'),
    startedAt: tstz('started_at').notNull(),
    nextDueAt: tstz('next_due_at'),
    nextBillingAt: tstz('next_billing_at'),
    lastCaseId: integer('last_case_id'),
    pausedAt: tstz('paused_at'),
    endedAt: tstz('ended_at'),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('subscriptions_id_idx').on(t.id),
    foreignKey({
      columns: [t.customerId, t.cycleId],
      foreignColumns: [cycles.customerId, cycles.id],
    }),
    foreignKey({
      columns: [t.customerId, t.subjectId],
      foreignColumns: [subjects.customerId, subjects.id],
    }).onDelete('cascade'),
    // the due job's claim, and the list's state filter sorted by due date
    index('subscriptions_due_idx').on(t.customerId, t.state, t.nextDueAt),
    index('subscriptions_billing_idx').on(t.customerId, t.state, t.nextBillingAt),
    index('subscriptions_next_due_idx').on(t.customerId, t.nextDueAt, t.id),
    index('subscriptions_cycle_idx').on(t.customerId, t.cycleId, t.nextDueAt),
    index('subscriptions_subject_idx').on(t.customerId, t.subjectId, t.nextDueAt),
    uniqueIndex('subscriptions_one_open_idx')
      .on(t.customerId, t.cycleId, t.subjectId)
      .where(sql`${t.state} <> 'ended'`),
  ],
);

/**
 * One row per subscription and due date turned into a case: the unique key makes the due job
 * open each period's case once, whatever runs it twice (two server processes, a restart).
 */
export const subscriptionPeriods = pgTable(
  'subscription_periods',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id').notNull(),
    period: tstz('period').notNull(),
    caseId: integer('case_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // the key is the once: a period's case is recorded once per subscription
    primaryKey({ columns: [t.customerId, t.subscriptionId, t.period] }),
    foreignKey({
      columns: [t.customerId, t.subscriptionId],
      foreignColumns: [subscriptions.customerId, subscriptions.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.customerId, t.caseId],
      foreignColumns: [cases.customerId, cases.id],
    }).onDelete('cascade'),
    index('subscription_periods_case_idx').on(t.customerId, t.caseId),
  ],
);

/**
 * The billing of a subscription, one row per billing period (unique: billed once): `invoice`
 * when the customer's pricebook in force says invoiced (a line of their next invoice),
 * `card` otherwise (owed by the customer's card).
 */
export const subscriptionCharges = pgTable(
  'subscription_charges',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    subscriptionId: integer('subscription_id').notNull(),
    period: tstz('period').notNull(),
    amountPence: integer('amount_pence').notNull(),
    kind: varchar('kind', { length: 10 }).$type<'invoice' | 'card'>().notNull(),
    pricebookId: integer('pricebook_id'),
    description: varchar('description', { length: 200 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    uniqueIndex('subscription_charges_once_idx').on(t.customerId, t.subscriptionId, t.period),
    foreignKey({
      columns: [t.customerId, t.subscriptionId],
      foreignColumns: [subscriptions.customerId, subscriptions.id],
    }).onDelete('cascade'),
    index('subscription_charges_customer_idx').on(t.customerId, t.createdAt),
  ],
);
