import type { ActivityConfig, ReminderSchedule } from '@kestrel/domain';
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { customers } from '../customers/customers.table.js';
import { segments } from '../segments/segments.table.js';

/** What a customer's cases check: a named list of requirements (activity types with config). */
export const processes = pgTable(
  'processes',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    name: varchar('name', { length: 100 }).notNull(),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    sendInvitation: boolean('send_invitation').notNull().default(true),
    reminderDays: smallint('reminder_days').notNull().default(7),
    invitationMessage: text('invitation_message').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
    /** The segment it belongs to (issue 30), or null: the whole organisation's. */
    segmentId: integer('segment_id'),
    /** Issue 33: the automatic reminder cadence (null: none), see @kestrel/domain reminders. */
    reminderSchedule: jsonb('reminder_schedule').$type<ReminderSchedule>(),
    /** Days an invitation stays valid (0: it never expires). */
    invitationExpiryDays: smallint('invitation_expiry_days').notNull().default(0),
    /** Reminders also go by text message (to a subject with a mobile number). */
    reminderSms: boolean('reminder_sms').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('processes_id_idx').on(t.id),
    index('processes_name_idx').on(t.customerId, t.name),
    // a segment is deleted only once its processes are unassigned (segments.service.ts)
    foreignKey({
      columns: [t.customerId, t.segmentId],
      foreignColumns: [segments.customerId, segments.id],
    }),
    index('processes_segment_idx').on(t.customerId, t.segmentId),
  ],
);

/** One check a process's cases run: an activity type and its configuration. */
export const processRequirements = pgTable(
  'process_requirements',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    processId: integer('process_id').notNull(),
    activityTypeId: integer('activity_type_id')
      .notNull()
      .references(() => activityTypes.id),
    position: smallint('position').notNull().default(0),
    config: jsonb('config').$type<ActivityConfig>().notNull().default({}),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('process_requirements_id_idx').on(t.id),
    foreignKey({
      columns: [t.customerId, t.processId],
      foreignColumns: [processes.customerId, processes.id],
    }).onDelete('cascade'),
    index('process_requirements_process_idx').on(t.customerId, t.processId, t.position),
  ],
);
