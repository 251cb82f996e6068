import { z } from 'zod';
import { type ActivityConfig, activityConfigSchema } from '../activity-config.js';
import {
  APPLICATION_KINDS,
  isLicenceNumberFormat,
  LICENCE_ACTIONS,
  LICENCE_CODE_PATTERN,
  LICENCE_DURATION_MAX,
  LICENCE_DURATION_MIN,
  LICENCE_NUMBER_FORMAT_INVALID,
  LICENCE_NUMBER_MAX,
  LICENCE_NUMBER_PATTERN,
  LICENCE_STATUSES,
} from '../lms.js';
import { MESSAGES, maxCharacters } from '../messages.js';
import { idSchema, nullableTimestampOut, timestampOut } from './common.js';
import { requirementInput } from './processes.js';

export * from '../lms.js';

export const LICENCE_NAME_MAX = 100;
export const LICENCE_TEXT_MAX = 4000;
export const LICENCE_REASON_MAX = 2000;
export const LICENCE_LIST_MAX = 30;
export const LICENCE_ITEM_MAX = 500;
export const LICENCE_FEE_MAX = 1_000_000;

const name = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .max(LICENCE_NAME_MAX, maxCharacters(LICENCE_NAME_MAX));
const text = z.string().trim().max(LICENCE_TEXT_MAX, maxCharacters(LICENCE_TEXT_MAX));
const items = z
  .array(
    z
      .string()
      .trim()
      .min(1, MESSAGES.required)
      .max(LICENCE_ITEM_MAX, maxCharacters(LICENCE_ITEM_MAX)),
  )
  .max(LICENCE_LIST_MAX, `At most ${LICENCE_LIST_MAX} items.`);
const code = z
  .string({ error: MESSAGES.required })
  .trim()
  .toUpperCase()
  .regex(LICENCE_CODE_PATTERN, 'Use 1 to 10 letters or digits.');
/** Money in pence (shown as pounds). */
const pence = z
  .number({ error: 'A valid integer is required.' })
  .int('A valid integer is required.')
  .min(0, 'Ensure this value is greater than or equal to 0.')
  .max(LICENCE_FEE_MAX, `Ensure this value is less than or equal to ${LICENCE_FEE_MAX}.`);
const isoDate = z.iso.date({ error: MESSAGES.invalidDate });
const status = z.enum(LICENCE_STATUSES);
const kind = z.enum(APPLICATION_KINDS, { error: 'Choose new or renewal.' });

// ---- Licence groups ----

const groupFields = {
  name,
  description: text,
  /** Shown on the public council pages (with the council's published sub-groups and portals). */
  is_published: z.boolean(),
};
/** PUT /api/lms/licence-groups/{id}/ (PATCH: partial). */
export const licenceGroupUpdate = z.object(groupFields);
export type LicenceGroupUpdate = z.output<typeof licenceGroupUpdate>;
/** POST /api/lms/licence-groups/. */
export const licenceGroupCreate = z.object({
  ...groupFields,
  description: groupFields.description.default(''),
  is_published: groupFields.is_published.default(false),
});
export type LicenceGroupCreate = z.output<typeof licenceGroupCreate>;
export const licenceGroupOut = z.strictObject({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  is_published: z.boolean(),
  sub_group_count: z.number(),
  licence_count: z.number(),
  created_at: timestampOut,
  updated_at: timestampOut,
});
export type LicenceGroupOut = z.infer<typeof licenceGroupOut>;

// ---- Sub-groups ----

const subGroupFields = {
  name,
  /** The {CODE} of the council's licence numbers: 'HCD'. */
  code,
  description: text,
  is_published: z.boolean(),
};
/** PUT /api/lms/licence-sub-groups/{id}/ (PATCH: partial; the group does not change). */
export const licenceSubGroupUpdate = z.object(subGroupFields);
export type LicenceSubGroupUpdate = z.output<typeof licenceSubGroupUpdate>;
/** POST /api/lms/licence-sub-groups/: `group` is one of the council's groups. */
export const licenceSubGroupCreate = z.object({
  ...subGroupFields,
  group: idSchema,
  description: subGroupFields.description.default(''),
  is_published: subGroupFields.is_published.default(false),
});
export type LicenceSubGroupCreate = z.output<typeof licenceSubGroupCreate>;
export const licenceSubGroupOut = z.strictObject({
  id: z.number(),
  group: z.number(),
  group_name: z.string(),
  name: z.string(),
  code: z.string(),
  description: z.string(),
  is_published: z.boolean(),
  definition_count: z.number(),
  created_at: timestampOut,
  updated_at: timestampOut,
});
export type LicenceSubGroupOut = z.infer<typeof licenceSubGroupOut>;

// ---- Definitions ----

const definitionFields = {
  name,
  description: text,
  duration_years: z
    .number({ error: 'A valid integer is required.' })
    .int('A valid integer is required.')
    .min(
      LICENCE_DURATION_MIN,
      `Ensure this value is greater than or equal to ${LICENCE_DURATION_MIN}.`,
    )
    .max(
      LICENCE_DURATION_MAX,
      `Ensure this value is less than or equal to ${LICENCE_DURATION_MAX}.`,
    ),
  fee_pence: pence,
  /** The checks an applicant must pass: the product's activity types with their levels. */
  requirements: z.array(requirementInput).max(20, 'At most 20 requirements.'),
  /** Documents asked for: 'DVLA driving licence (both parts)'. */
  documents: items,
  /** Declarations the applicant confirms: 'I have no unspent convictions …'. */
  declarations: items,
  is_published: z.boolean(),
};
/** PUT /api/lms/definitions/{id}/ (PATCH: partial; the sub-group does not change). */
export const licenceDefinitionUpdate = z.object(definitionFields);
export type LicenceDefinitionUpdate = z.output<typeof licenceDefinitionUpdate>;
/** POST /api/lms/definitions/: `sub_group` is one of the council's sub-groups. */
export const licenceDefinitionCreate = z.object({
  ...definitionFields,
  sub_group: idSchema,
  description: definitionFields.description.default(''),
  requirements: definitionFields.requirements.default([]),
  documents: definitionFields.documents.default([]),
  declarations: definitionFields.declarations.default([]),
  is_published: definitionFields.is_published.default(false),
});
export type LicenceDefinitionCreate = z.output<typeof licenceDefinitionCreate>;
/** A setting of a licence's check: one field of spec point 3's activity configuration. */
export type RequirementConfigField = keyof ActivityConfig;

const DBS_SETTINGS: readonly RequirementConfigField[] = [
  'purpose',
  'other_purpose',
  'employment_sector',
  'employer_name_source',
  'employer_name',
  'position',
  'online_cert_email',
  'paper_cert',
  'paper_cert_name',
  'paper_cert_department',
  'paper_cert_line_one',
  'paper_cert_line_two',
  'paper_cert_town',
  'paper_cert_postcode',
  'volunteer',
];

/**
 * The settings each kind of check takes (spec point 3's config fields): a process's requirement
 * and a licence's check alike; a kind not named here takes none.
 */
export const REQUIREMENT_CONFIG_FIELDS: Readonly<
  Partial<Record<string, readonly RequirementConfigField[]>>
> = {
  'dbs-basic': DBS_SETTINGS,
  'dbs-standard': [...DBS_SETTINGS, 'workforce'],
  'dbs-enhanced': [
    ...DBS_SETTINGS,
    'workforce',
    'adult_barred_list',
    'child_barred_list',
    'working_at_home_address',
  ],
  'document-collection': ['collectors'],
  'online-idv': ['scheme_type'],
  'driver-data': ['include_cpc', 'include_tacho'],
};

/** A check setting's name, as the council reads it (the editor's labels, the summaries). */
export const REQUIREMENT_CONFIG_LABELS: Readonly<Record<RequirementConfigField, string>> = {
  purpose: 'Purpose',
  other_purpose: 'Other purpose',
  employment_sector: 'Employment sector',
  employer_name_source: 'Employer name source',
  employer_name: 'Employer name',
  position: 'Position',
  online_cert_email: 'Online certificate email',
  paper_cert: 'Paper certificate',
  paper_cert_name: 'Certificate recipient name',
  paper_cert_department: 'Department',
  paper_cert_line_one: 'Address line one',
  paper_cert_line_two: 'Address line two',
  paper_cert_town: 'Town',
  paper_cert_postcode: 'Postcode',
  workforce: 'Workforce',
  volunteer: 'Volunteer',
  adult_barred_list: 'Working with vulnerable adults (adult barred list)',
  child_barred_list: 'Working with children (children barred list)',
  working_at_home_address: 'Working at home address',
  collectors: 'Document collectors',
  scheme_type: 'Scheme type',
  include_cpc: 'Include CPC',
  include_tacho: 'Include tacho cards',
};

/** A setting shown only when another holds a given value (spec point 3's dependent fields). */
export function isRequirementFieldShown(
  field: RequirementConfigField,
  config: { purpose?: unknown; employer_name_source?: unknown; paper_cert?: unknown },
): boolean {
  if (field === 'other_purpose') return config.purpose === 'other';
  if (field === 'employer_name') return config.employer_name_source === 'custom';
  if (field.startsWith('paper_cert_')) return config.paper_cert === true;
  return true;
}

/** The settings `kind` takes (none for a kind without settings). */
export function requirementConfigFields(kind: string): readonly RequirementConfigField[] {
  return REQUIREMENT_CONFIG_FIELDS[kind] ?? [];
}

/** A setting given that the check's kind does not take (400 on `config.{field}`). */
export const requirementSettingNotUsed = (checkName: string) =>
  `This setting does not apply to the ${checkName} check.`;

/** The settings of a licence's check that hold a value (null, '' and [] hold none). */
export function setRequirementFields(config: ActivityConfig): RequirementConfigField[] {
  return (Object.keys(config) as RequirementConfigField[]).filter((f) => {
    const v = config[f];
    return !(v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0));
  });
}

/**
 * PATCH /api/lms/definitions/{id}/requirements/{activity_type}/: the whole configuration of one
 * check of the licence (spec point 3's fields and rules; fields of other kinds are refused).
 */
export const licenceRequirementConfigInput = z.object({ config: activityConfigSchema });
export type LicenceRequirementConfigInput = z.output<typeof licenceRequirementConfigInput>;

export const licenceRequirementOut = z.strictObject({
  activity_type: z.string(),
  /** 'Enhanced DBS' (the activity kind's name). */
  activity_name: z.string(),
  config: z.record(z.string(), z.unknown()),
});
export const licenceDefinitionOut = z.strictObject({
  id: z.number(),
  sub_group: z.number(),
  sub_group_name: z.string(),
  group: z.number(),
  group_name: z.string(),
  name: z.string(),
  description: z.string(),
  duration_years: z.number(),
  /** '3 years'. */
  duration_text: z.string(),
  fee_pence: z.number(),
  /** '£150.00'. */
  fee_display: z.string(),
  requirements: z.array(licenceRequirementOut),
  documents: z.array(z.string()),
  declarations: z.array(z.string()),
  is_published: z.boolean(),
  portal_count: z.number(),
  created_at: timestampOut,
  updated_at: timestampOut,
});
export type LicenceDefinitionOut = z.infer<typeof licenceDefinitionOut>;

// ---- Application portals of a definition ----

const portalFields = {
  title: name,
  introduction: text,
  is_open: z.boolean(),
  kind,
  fee_pence: pence,
};
/** PUT /api/lms/definitions/{id}/application_portals/{appId}/ (PATCH: partial). */
export const applicationPortalUpdate = z.object(portalFields);
export type ApplicationPortalUpdate = z.output<typeof applicationPortalUpdate>;
/** POST /api/lms/definitions/{id}/application_portals/. */
export const applicationPortalCreate = z.object({
  ...portalFields,
  introduction: portalFields.introduction.default(''),
  is_open: portalFields.is_open.default(false),
  kind: portalFields.kind.default('new'),
});
export type ApplicationPortalCreate = z.output<typeof applicationPortalCreate>;
export const applicationPortalOut = z.strictObject({
  id: z.number(),
  definition: z.number(),
  definition_name: z.string(),
  title: z.string(),
  introduction: z.string(),
  is_open: z.boolean(),
  kind,
  /** 'New application' or 'Renewal'. */
  kind_label: z.string(),
  fee_pence: z.number(),
  fee_display: z.string(),
  created_at: timestampOut,
  updated_at: timestampOut,
});
export type ApplicationPortalOut = z.infer<typeof applicationPortalOut>;

// ---- Licences ----

/** POST /api/lms/licences/: issues a licence of a definition to a subject of the council. */
export const licenceCreate = z.object({
  definition: idSchema,
  holder: idSchema,
  /** Omitted: the next number in the council's format. */
  number: z
    .string()
    .trim()
    .toUpperCase()
    .max(LICENCE_NUMBER_MAX, maxCharacters(LICENCE_NUMBER_MAX))
    .regex(LICENCE_NUMBER_PATTERN, MESSAGES.invalidFormat)
    .optional(),
  /** Omitted: today. The expiry follows from the definition's duration. */
  issue_date: isoDate.optional(),
  conditions: text.default(''),
});
export type LicenceCreate = z.output<typeof licenceCreate>;

/** PATCH /api/lms/licences/{id}/: the conditions only (status changes are actions). */
export const licenceUpdate = z.object({ conditions: text });
export type LicenceUpdate = z.output<typeof licenceUpdate>;

/** POST /api/lms/licences/{id}/{suspend|revoke|reinstate|surrender}/. */
export const licenceActionInput = z.object({
  reason: z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, MESSAGES.required)
    .max(LICENCE_REASON_MAX, maxCharacters(LICENCE_REASON_MAX)),
});
export type LicenceActionInput = z.output<typeof licenceActionInput>;

export const licenceEventOut = z.strictObject({
  id: z.number(),
  /** 'issue', or one of the actions. */
  action: z.enum(['issue', ...LICENCE_ACTIONS]),
  from_status: status.nullable(),
  to_status: status,
  reason: z.string(),
  actor: z.number().nullable(),
  actor_name: z.string(),
  created_at: timestampOut,
});
export type LicenceEventOut = z.infer<typeof licenceEventOut>;

/**
 * A licence's latest DBS update service cycle (issue 32): the period it was due, the check's
 * state, and the update service's answer once given (`certificate_status`, its meaning shown).
 */
export const licenceUpdateCheckOut = z.strictObject({
  due_on: z.string(),
  case: z.number(),
  state: z.string(),
  /** 'In progress', 'Complete'… */
  state_label: z.string(),
  certificate_status: z.string().nullable(),
  /** The status's meaning (spec point 4), or null before the answer. */
  certificate_status_meaning: z.string().nullable(),
  checked_on: z.string().nullable(),
  new_information: z.boolean(),
});
export type LicenceUpdateCheckOut = z.infer<typeof licenceUpdateCheckOut>;
export const licenceOut = z.strictObject({
  id: z.number(),
  number: z.string(),
  holder: z.number(),
  holder_name: z.string(),
  /** ISO date or null. */
  holder_dob: z.string().nullable(),
  group: z.number(),
  group_name: z.string(),
  sub_group: z.number(),
  sub_group_name: z.string(),
  definition: z.number(),
  definition_name: z.string(),
  /** 'expired' once the expiry date has passed (an active licence past its expiry). */
  status,
  status_label: z.string(),
  /** The actions allowed now. */
  actions: z.array(z.enum(LICENCE_ACTIONS)),
  issue_date: z.string(),
  expiry_date: z.string(),
  conditions: z.string(),
  events: z.array(licenceEventOut),
  /** The latest six-monthly DBS update service check of its holder's certificate, if any. */
  update_service: licenceUpdateCheckOut.nullable(),
  created_at: timestampOut,
  updated_at: timestampOut,
  status_changed_at: nullableTimestampOut,
});
export type LicenceOut = z.infer<typeof licenceOut>;

// ---- Public (published data only, nothing of applicants) ----

export const publicCustomerOut = z.strictObject({ id: z.number(), name: z.string() });
export const publicLicenceGroupOut = z.strictObject({
  id: z.number(),
  customer: z.number(),
  name: z.string(),
  description: z.string(),
});
export const publicLicenceSubGroupOut = z.strictObject({
  id: z.number(),
  customer: z.number(),
  group: z.number(),
  name: z.string(),
  description: z.string(),
});
export const publicApplicationPortalOut = z.strictObject({
  id: z.number(),
  customer: z.number(),
  customer_name: z.string(),
  group: z.number(),
  sub_group: z.number(),
  definition: z.number(),
  definition_name: z.string(),
  title: z.string(),
  introduction: z.string(),
  kind,
  kind_label: z.string(),
  duration_text: z.string(),
  fee_pence: z.number(),
  fee_display: z.string(),
  /** What the licence needs: the checks' names, documents and declarations. */
  requirements: z.array(z.string()),
  documents: z.array(z.string()),
  declarations: z.array(z.string()),
});
export type PublicApplicationPortalOut = z.infer<typeof publicApplicationPortalOut>;

/** The council's licence number format (stored per council): see formatLicenceNumber. */
export const licenceNumberFormatInput = z
  .string()
  .trim()
  .toUpperCase()
  .max(LICENCE_NUMBER_MAX, maxCharacters(LICENCE_NUMBER_MAX))
  .refine(isLicenceNumberFormat, LICENCE_NUMBER_FORMAT_INVALID);
