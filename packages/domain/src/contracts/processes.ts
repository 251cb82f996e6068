import { z } from 'zod';
import { type ActivityConfig, activityConfigSchema } from '../activity-config.js';
import { MESSAGES, maxCharacters } from '../messages.js';
import { invitationExpiryDaysSchema, reminderScheduleSchema } from '../reminders.js';
import { timestampOut } from './common.js';

/** The longest process description, on the form and on the server. */
export const PROCESS_DESCRIPTION_MAX = 2000;
export const PROCESS_NAME_MAX = 100;
export const INVITATION_MESSAGE_MAX = 2000;

const processName = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .max(PROCESS_NAME_MAX, maxCharacters(PROCESS_NAME_MAX));
const description = z
  .string()
  .trim()
  .max(PROCESS_DESCRIPTION_MAX, maxCharacters(PROCESS_DESCRIPTION_MAX));
const invitationMessage = z
  .string()
  .trim()
  .max(INVITATION_MESSAGE_MAX, maxCharacters(INVITATION_MESSAGE_MAX));
const reminderDays = z.number().int().min(0).max(365);

export const requirementInput = z.object({
  activity_type: z.string().trim().min(1, MESSAGES.required).max(50),
  config: activityConfigSchema.default({}),
});
export const requirementsInput = z.array(requirementInput).max(20, 'At most 20 requirements.');
export type RequirementInput = z.output<typeof requirementInput>;

/** PUT /api/processes/{id}/ (PATCH: the same, partial). */
export const processUpdate = z.object({
  name: processName,
  description,
  is_active: z.boolean(),
  send_invitation: z.boolean(),
  reminder_days: reminderDays,
  invitation_message: invitationMessage,
  /** Issue 33: the automatic reminder cadence (null: none); absent on a PUT, unchanged. */
  reminder_schedule: reminderScheduleSchema.nullable().optional(),
  /** Days the invitation stays valid (0: never expires). */
  invitation_expiry_days: invitationExpiryDaysSchema.optional(),
  /** Reminders also go by text message to a subject with a mobile number. */
  reminder_sms: z.boolean().optional(),
});

/** POST /api/processes/. */
export const processCreate = z.object({
  name: processName,
  description: description.default(''),
  is_active: z.boolean().default(true),
  send_invitation: z.boolean().default(true),
  reminder_days: reminderDays.default(7),
  invitation_message: invitationMessage.default(''),
  reminder_schedule: reminderScheduleSchema.nullable().default(null),
  invitation_expiry_days: invitationExpiryDaysSchema.default(0),
  reminder_sms: z.boolean().default(false),
  requirements: requirementsInput.default([]),
});

/** The fields of a process a customer edits on the details form. */
export const processDetails = processUpdate.pick({
  name: true,
  description: true,
  is_active: true,
});
export type ProcessDetails = z.infer<typeof processDetails>;

/** An activity configuration as stored (already checked on the way in). */
export const activityConfigOut = z.custom<ActivityConfig>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
);

export const requirementOut = z.strictObject({
  id: z.number(),
  activity_type: z.string(),
  activity_type_name: z.string(),
  key: z.string(),
  position: z.number(),
  config: activityConfigOut,
});
export type RequirementOut = z.infer<typeof requirementOut>;

/** A process as the API returns it. */
export const processOut = z.strictObject({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  is_active: z.boolean(),
  send_invitation: z.boolean(),
  reminder_days: z.number(),
  invitation_message: z.string(),
  reminder_schedule: reminderScheduleSchema.nullable(),
  invitation_expiry_days: z.number(),
  reminder_sms: z.boolean(),
  created_at: timestampOut,
  requirements: z.array(requirementOut),
  can_edit_requirements: z.boolean(),
  case_count: z.number(),
});
export type ProcessOut = z.infer<typeof processOut>;
