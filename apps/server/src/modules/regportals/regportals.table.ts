import type { RegistrationState, RegPortalFieldMode, RegPortalPayer } from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
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
import { customers } from '../customers/customers.table.js';
import { processes } from '../processes/processes.table.js';
import { segments } from '../segments/segments.table.js';

/**
 * A registration portal (issue 31): a process published in one of the customer's segments at
 * `/self-initiate/{segment_id}/{path}` (path unique within the segment), who pays, which details
 * are asked, and whether it takes registrations (open, a limit, a last day). The public link
 * finds it by (segment_id, path) before its customer is known: an ordinary index, the unique key
 * keeps customer_id first (decision 023).
 */
export const registrationPortals = pgTable(
  'registration_portals',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    processId: integer('process_id').notNull(),
    segmentId: integer('segment_id').notNull(),
    path: varchar('path', { length: 60 }).notNull(),
    title: varchar('title', { length: 120 }).notNull(),
    introduction: text('introduction').notNull().default(''),
    payer: varchar('payer', { length: 10 }).$type<RegPortalPayer>().notNull().default('customer'),
    askEmail: varchar('ask_email', { length: 10 }).$type<RegPortalFieldMode>().notNull(),
    askDob: varchar('ask_dob', { length: 10 }).$type<RegPortalFieldMode>().notNull(),
    askPhone: varchar('ask_phone', { length: 10 }).$type<RegPortalFieldMode>().notNull(),
    open: boolean('open').notNull().default(true),
    registrationLimit: integer('registration_limit'),
    closesOn: date('closes_on', { mode: 'string' }),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('registration_portals_id_idx').on(t.id),
    uniqueIndex('registration_portals_path_idx').on(t.customerId, t.segmentId, t.path),
    // the public link: segment and path, before the customer is known
    index('registration_portals_link_idx').on(t.segmentId, t.path),
    index('registration_portals_process_idx').on(t.customerId, t.processId, t.title),
    foreignKey({
      columns: [t.customerId, t.processId],
      foreignColumns: [processes.customerId, processes.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.customerId, t.segmentId],
      foreignColumns: [segments.customerId, segments.id],
    }).onDelete('cascade'),
  ],
);

/**
 * A person's registration through a portal: their details, its state, the hash of the emailed
 * confirmation token, and what it led to (the subject, the payment intent, the case). It expires
 * REGISTRATION_EXPIRY_HOURS after it started unless its case was created. One registration that
 * has not expired per portal and email (the partial unique key): registering again answers it.
 * subject_id, case_id and payment_intent_id are references without foreign keys (the rows they
 * name may be merged or removed; the registration keeps its history).
 */
export const portalRegistrations = pgTable(
  'portal_registrations',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    regPortalId: integer('reg_portal_id').notNull(),
    processId: integer('process_id').notNull(),
    firstName: varchar('first_name', { length: 60 }).notNull(),
    lastName: varchar('last_name', { length: 60 }).notNull(),
    email: varchar('email', { length: 254 }).notNull(),
    dob: date('dob', { mode: 'string' }),
    phone: varchar('phone', { length: 30 }),
    state: varchar('state', { length: 20 }).$type<RegistrationState>().notNull(),
    tokenHash: varchar('token_hash', { length: 64 }),
    /** The signed-in subject's login that registered through /api/s/ (no email to confirm). */
    subjectUserId: integer('subject_user_id'),
    startedAt: tstz('started_at').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    emailConfirmedAt: tstz('email_confirmed_at'),
    subjectId: integer('subject_id'),
    caseId: integer('case_id'),
    paymentIntentId: integer('payment_intent_id'),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('portal_registrations_id_idx').on(t.id),
    foreignKey({
      columns: [t.customerId, t.regPortalId],
      foreignColumns: [registrationPortals.customerId, registrationPortals.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.customerId, t.processId],
      foreignColumns: [processes.customerId, processes.id],
    }).onDelete('cascade'),
    uniqueIndex('portal_registrations_one_live_idx')
      .on(t.customerId, t.regPortalId, t.email)
      .where(sql`${t.state} <> 'expired'`),
    // the list, newest first, and its filters
    index('portal_registrations_started_idx').on(t.customerId, t.startedAt, t.id),
    index('portal_registrations_portal_idx').on(t.customerId, t.regPortalId, t.startedAt),
    index('portal_registrations_process_idx').on(t.customerId, t.processId, t.startedAt),
    index('portal_registrations_state_idx').on(t.customerId, t.state, t.startedAt),
    // the confirmation link, before the customer is known (a hash of 32 random bytes)
    index('portal_registrations_token_idx').on(t.tokenHash),
    // the expiry job: what has not come to a case by its time, across customers
    index('portal_registrations_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.state} in ('started', 'email_confirmed', 'awaiting_payment')`),
    index('portal_registrations_payment_idx').on(t.customerId, t.paymentIntentId),
  ],
);

/** A registration's history: one row per change of state (history, never changed). */
export const portalRegistrationEvents = pgTable(
  'portal_registration_events',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    registrationId: integer('registration_id').notNull(),
    state: varchar('state', { length: 20 }).$type<RegistrationState>().notNull(),
    note: varchar('note', { length: 300 }).notNull().default(''),
    at: tstz('at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    foreignKey({
      columns: [t.customerId, t.registrationId],
      foreignColumns: [portalRegistrations.customerId, portalRegistrations.id],
    }).onDelete('cascade'),
    index('portal_registration_events_reg_idx').on(t.customerId, t.registrationId, t.at),
  ],
);
