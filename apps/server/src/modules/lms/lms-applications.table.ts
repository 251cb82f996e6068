import type {
  ApplicationKind,
  ApplicationState,
  TaxCheckNeed,
  TaxCheckStatus,
} from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { cases } from '../cases/cases.table.js';
import { customers } from '../customers/customers.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { licenceDefinitions, licences, lmsApplicationPortals } from './lms.table.js';

/**
 * A subject's application on a council's application portal (issue 32): awaiting payment, then in
 * progress (its case of the definition's requirements), until granted (the licence issued),
 * refused or withdrawn. One open application per subject and portal.
 */
export const lmsApplications = pgTable(
  'lms_applications',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    portalId: integer('portal_id').notNull(),
    definitionId: integer('definition_id').notNull(),
    subjectId: integer('subject_id').notNull(),
    kind: varchar('kind', { length: 10 }).$type<ApplicationKind>().notNull(),
    /** The licence a renewal renews. */
    renewsLicenceId: integer('renews_licence_id'),
    state: varchar('state', { length: 24 }).$type<ApplicationState>().notNull(),
    feePence: integer('fee_pence').notNull(),
    /** The payment portal's intent of the fee (payments), once made. */
    paymentIntentId: integer('payment_intent_id'),
    paidAt: tstz('paid_at'),
    /** The case of the definition's requirements, opened once (paid, or no fee). */
    caseId: integer('case_id'),
    taxCheckNeed: varchar('tax_check_need', { length: 8 }).$type<TaxCheckNeed>().notNull(),
    taxCheckCode: varchar('tax_check_code', { length: 9 }),
    taxCheckStatus: varchar('tax_check_status', { length: 12 })
      .$type<TaxCheckStatus>()
      .notNull()
      .default('not_checked'),
    taxCheckAt: tstz('tax_check_at'),
    taxCheckMessage: text('tax_check_message').notNull().default(''),
    taxResponsibilitiesConfirmed: boolean('tax_responsibilities_confirmed')
      .notNull()
      .default(false),
    holdsLicenceElsewhere: boolean('holds_licence_elsewhere').notNull().default(false),
    infoRequest: text('info_request'),
    decisionReason: text('decision_reason').notNull().default(''),
    licenceId: integer('licence_id'),
    decidedAt: tstz('decided_at'),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('lms_applications_id_idx').on(t.id),
    foreignKey({
      columns: [t.customerId, t.portalId],
      foreignColumns: [lmsApplicationPortals.customerId, lmsApplicationPortals.id],
    }),
    foreignKey({
      columns: [t.customerId, t.definitionId],
      foreignColumns: [licenceDefinitions.customerId, licenceDefinitions.id],
    }),
    foreignKey({
      columns: [t.customerId, t.subjectId],
      foreignColumns: [subjects.customerId, subjects.id],
    }),
    foreignKey({
      columns: [t.customerId, t.caseId],
      foreignColumns: [cases.customerId, cases.id],
    }),
    foreignKey({
      columns: [t.customerId, t.renewsLicenceId],
      foreignColumns: [licences.customerId, licences.id],
    }),
    foreignKey({
      columns: [t.customerId, t.licenceId],
      foreignColumns: [licences.customerId, licences.id],
    }),
    // one open application per subject and portal (applying again answers the open one)
    uniqueIndex('lms_applications_open_idx')
      .on(t.customerId, t.subjectId, t.portalId)
      .where(sql`${t.state} in ('awaiting_payment', 'in_progress', 'more_info_requested')`),
    // the payment of the fee opens the case exactly once
    uniqueIndex('lms_applications_case_idx')
      .on(t.customerId, t.caseId)
      .where(sql`${t.caseId} is not null`),
    index('lms_applications_state_idx').on(t.customerId, t.state, t.createdAt),
    index('lms_applications_subject_idx').on(t.customerId, t.subjectId),
    index('lms_applications_portal_idx').on(t.customerId, t.portalId),
  ],
);

/** The trail of an application: applied, paid, asked for more, answered, checked, decided. */
export const lmsApplicationEvents = pgTable(
  'lms_application_events',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    applicationId: integer('application_id').notNull(),
    action: varchar('action', { length: 20 }).notNull(),
    fromState: varchar('from_state', { length: 24 }).$type<ApplicationState>(),
    toState: varchar('to_state', { length: 24 }).$type<ApplicationState>().notNull(),
    message: text('message').notNull().default(''),
    actorId: integer('actor_id'),
    actorName: varchar('actor_name', { length: 200 }).notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    foreignKey({
      columns: [t.customerId, t.applicationId],
      foreignColumns: [lmsApplications.customerId, lmsApplications.id],
    }).onDelete('cascade'),
    index('lms_application_events_app_idx').on(t.customerId, t.applicationId, t.createdAt),
  ],
);
