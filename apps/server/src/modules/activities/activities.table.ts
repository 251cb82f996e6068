import type { ActivityConfig } from '@kestrel/domain';
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import {
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
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { cases } from '../cases/cases.table.js';
import { customers } from '../customers/customers.table.js';

/**
 * The states an activity of operations' turn can be in (theirs, and a countersignature's
 * `ca-awaiting-agent`): the predicate of case_activities_ops_waiting_idx, as literals so the
 * planner can match a query's condition to it (opsTurn in activities.routes.ts).
 */
export const OPS_TURN_STATES = ['ca-awaiting-ops', 'ca-error-initiating', 'ca-awaiting-agent'];

/** `state in ('ca-awaiting-ops', ...)`: OPS_TURN_STATES over `state`, as literals. */
export function opsTurnStates(state: AnyColumn): SQL {
  return sql`${state} in (${sql.raw(OPS_TURN_STATES.map((s) => `'${s}'`).join(', '))})`;
}

/**
 * The states of an activity waiting for the customer's own action (the customer's outstanding
 * activities, /api/outstanding-activities/): the predicate of case_activities_outstanding_idx, as
 * literals so the planner matches a query's condition to it (outstanding-list.ts).
 */
export const CUSTOMER_TURN_STATES = ['ca-awaiting-agent', 'ca-pending-activity-decision'];

/** `state in ('ca-awaiting-agent', ...)`: CUSTOMER_TURN_STATES over `state`, as literals. */
export function customerTurnStates(state: AnyColumn): SQL {
  return sql`${state} in (${sql.raw(CUSTOMER_TURN_STATES.map((s) => `'${s}'`).join(', '))})`;
}

/** One check of a case (an activity type with the requirement's config), in its own state. */
export const caseActivities = pgTable(
  'case_activities',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    caseId: integer('case_id').notNull(),
    activityTypeId: integer('activity_type_id')
      .notNull()
      .references(() => activityTypes.id),
    /** A CaseActivityState of @kestrel/domain. */
    state: varchar('state', { length: 40 }).notNull(),
    position: integer('position').notNull().default(0),
    config: jsonb('config').$type<ActivityConfig>().notNull().default({}),
    resultData: jsonb('result_data').$type<Record<string, unknown>>().notNull().default({}),
    processingData: jsonb('processing_data').$type<Record<string, unknown>>().notNull().default({}),
    notes: text('notes').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
    completedAt: tstz('completed_at'),
    /** Operations' work queue (issue 29): the ops user who claimed it, their name then, and when. */
    claimedById: integer('claimed_by_id'),
    claimedByName: varchar('claimed_by_name', { length: 300 }).notNull().default(''),
    claimedAt: tstz('claimed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('case_activities_id_idx').on(t.id),
    foreignKey({
      columns: [t.customerId, t.caseId],
      foreignColumns: [cases.customerId, cases.id],
    }).onDelete('cascade'),
    index('case_activities_case_idx').on(t.customerId, t.caseId, t.position),
    index('case_activities_state_idx').on(t.customerId, t.state, t.updatedAt),
    // Operations' outstanding activities across customers, oldest first.
    index('case_activities_ops_state_idx').on(t.state, t.updatedAt),
    // Operations' outstanding list (issue 29), oldest first: walked in order under a page's LIMIT.
    index('case_activities_ops_waiting_idx').on(t.updatedAt, t.id).where(opsTurnStates(t.state)),
    // The same list filtered to one kind (`activity_type`, issue 29): that kind's waiting
    // activities in order, where walking every waiting one to find a rare kind read them all.
    index('case_activities_ops_kind_idx')
      .on(t.activityTypeId, t.updatedAt, t.id)
      .where(opsTurnStates(t.state)),
    // The customer's outstanding activities (issue 28), oldest first: a customer's walked in
    // order under a page's LIMIT (and its capped total), where the two states' entries of
    // case_activities_state_idx were all read and sorted (5,000 of a large customer's).
    index('case_activities_outstanding_idx')
      .on(t.customerId, t.updatedAt, t.id)
      .where(customerTurnStates(t.state)),
    index('case_activities_created_idx').on(t.customerId, t.createdAt, t.id),
    // The ops dashboard's throughput: activities completed per week across customers.
    index('case_activities_completed_idx').on(t.completedAt),
  ],
);

/**
 * The history of an activity's notes (operations only): each save, with its author's name as it
 * was then (ops staff belong to no customer, so the name is kept, not joined).
 */
export const caseActivityNotes = pgTable(
  'case_activity_notes',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    caseId: integer('case_id').notNull(),
    caseActivityId: integer('case_activity_id').notNull(),
    authorId: integer('author_id'),
    authorFirstName: varchar('author_first_name', { length: 150 }).notNull().default(''),
    authorLastName: varchar('author_last_name', { length: 150 }).notNull().default(''),
    description: text('description').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    foreignKey({
      columns: [t.customerId, t.caseActivityId],
      foreignColumns: [caseActivities.customerId, caseActivities.id],
    }).onDelete('cascade'),
    index('case_activity_notes_activity_idx').on(t.customerId, t.caseActivityId, t.createdAt),
  ],
);
