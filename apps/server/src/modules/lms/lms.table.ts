import type {
  ApplicationKind,
  LicenceAction,
  LicenceStatus,
  RequirementInput,
} from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
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
import { customers } from '../customers/customers.table.js';
import { subjects } from '../subjects/subjects.table.js';

/** A council's licence group ('Taxi and private hire'), shown publicly once published. */
export const licenceGroups = pgTable(
  'licence_groups',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    name: varchar('name', { length: 100 }).notNull(),
    description: text('description').notNull().default(''),
    isPublished: boolean('is_published').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('licence_groups_id_idx').on(t.id),
    index('licence_groups_name_idx').on(t.customerId, t.name),
  ],
);

/** A sub-group ('Hackney carriage driver'); `code` is the {CODE} of its licence numbers. */
export const licenceSubGroups = pgTable(
  'licence_sub_groups',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    groupId: integer('group_id').notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    code: varchar('code', { length: 10 }).notNull(),
    description: text('description').notNull().default(''),
    isPublished: boolean('is_published').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('licence_sub_groups_id_idx').on(t.id),
    foreignKey({
      columns: [t.customerId, t.groupId],
      foreignColumns: [licenceGroups.customerId, licenceGroups.id],
    }).onDelete('cascade'),
    index('licence_sub_groups_group_idx').on(t.customerId, t.groupId, t.name),
  ],
);

/** A licence type in a sub-group: duration, fee and what an applicant must pass and provide. */
export const licenceDefinitions = pgTable(
  'licence_definitions',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    subGroupId: integer('sub_group_id').notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    description: text('description').notNull().default(''),
    durationYears: smallint('duration_years').notNull(),
    feePence: integer('fee_pence').notNull(),
    requirements: jsonb('requirements').$type<RequirementInput[]>().notNull().default([]),
    documents: jsonb('documents').$type<string[]>().notNull().default([]),
    declarations: jsonb('declarations').$type<string[]>().notNull().default([]),
    /**
     * The council's process its applications' cases run (issue 32: the requirements as process
     * requirements, kept in step when an application opens its case); null until the first.
     */
    caseProcessId: integer('case_process_id'),
    isPublished: boolean('is_published').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('licence_definitions_id_idx').on(t.id),
    foreignKey({
      columns: [t.customerId, t.subGroupId],
      foreignColumns: [licenceSubGroups.customerId, licenceSubGroups.id],
    }).onDelete('cascade'),
    index('licence_definitions_sub_group_idx').on(t.customerId, t.subGroupId, t.name),
  ],
);

/** An application portal of a definition: open or closed, new or renewal, with its fee. */
export const lmsApplicationPortals = pgTable(
  'lms_application_portals',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    definitionId: integer('definition_id').notNull(),
    title: varchar('title', { length: 100 }).notNull(),
    introduction: text('introduction').notNull().default(''),
    isOpen: boolean('is_open').notNull().default(false),
    kind: varchar('kind', { length: 10 }).$type<ApplicationKind>().notNull().default('new'),
    feePence: integer('fee_pence').notNull(),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('lms_application_portals_id_idx').on(t.id),
    foreignKey({
      columns: [t.customerId, t.definitionId],
      foreignColumns: [licenceDefinitions.customerId, licenceDefinitions.id],
    }).onDelete('cascade'),
    index('lms_application_portals_definition_idx').on(t.customerId, t.definitionId),
  ],
);

/** An issued licence: number unique per council; status changes are licence_events. */
export const licences = pgTable(
  'licences',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    definitionId: integer('definition_id').notNull(),
    holderId: integer('holder_id').notNull(),
    number: varchar('number', { length: 30 }).notNull(),
    /** The council's running number ({SEQ}); null for a number typed in. */
    sequence: integer('sequence'),
    status: varchar('status', { length: 12 }).$type<LicenceStatus>().notNull().default('active'),
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    expiryDate: date('expiry_date', { mode: 'string' }).notNull(),
    conditions: text('conditions').notNull().default(''),
    statusChangedAt: tstz('status_changed_at'),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('licences_id_idx').on(t.id),
    foreignKey({
      columns: [t.customerId, t.definitionId],
      foreignColumns: [licenceDefinitions.customerId, licenceDefinitions.id],
    }),
    foreignKey({
      columns: [t.customerId, t.holderId],
      foreignColumns: [subjects.customerId, subjects.id],
    }),
    uniqueIndex('licences_number_idx').on(t.customerId, t.number),
    uniqueIndex('licences_sequence_idx')
      .on(t.customerId, t.sequence)
      .where(sql`${t.sequence} is not null`),
    index('licences_status_idx').on(t.customerId, t.status, t.expiryDate),
    index('licences_holder_idx').on(t.customerId, t.holderId),
  ],
);

/** The audit trail of a licence: its issue and each state change, with the actor and reason. */
export const licenceEvents = pgTable(
  'licence_events',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    licenceId: integer('licence_id').notNull(),
    action: varchar('action', { length: 12 }).$type<'issue' | LicenceAction>().notNull(),
    fromStatus: varchar('from_status', { length: 12 }).$type<LicenceStatus>(),
    toStatus: varchar('to_status', { length: 12 }).$type<LicenceStatus>().notNull(),
    reason: text('reason').notNull().default(''),
    actorId: integer('actor_id'),
    actorName: varchar('actor_name', { length: 200 }).notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    foreignKey({
      columns: [t.customerId, t.licenceId],
      foreignColumns: [licences.customerId, licences.id],
    }).onDelete('cascade'),
    index('licence_events_licence_idx').on(t.customerId, t.licenceId, t.createdAt),
    // the council's register: its suspensions and revocations, newest first (paged in SQL)
    index('licence_events_register_idx')
      .on(t.customerId, t.createdAt)
      .where(sql`${t.action} in ('suspend', 'revoke')`),
  ],
);
