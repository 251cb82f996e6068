import { z } from 'zod';
import { isoDateSchema } from '../dates.js';
import { MESSAGES, maxCharacters } from '../messages.js';
import { passwordStrengthSchema } from '../password.js';
import { LIMITS } from '../session.js';
import { emailSchema, forenameSchema, phoneSchema, surnameSchema } from '../text-rules.js';
import { idSchema, nullableTimestampOut, timestampOut } from './common.js';

/** Point 9's 'registration portal intent expiry', in hours. */
export const REGISTRATION_EXPIRY_HOURS = LIMITS.registrationPortalIntentExpiry;

export const REGISTRATION_STATES = [
  'started',
  'email_confirmed',
  'awaiting_payment',
  'paid',
  'case_created',
  'expired',
] as const;
export type RegistrationState = (typeof REGISTRATION_STATES)[number];
export const REGISTRATION_STATE_LABELS: Record<RegistrationState, string> = {
  started: 'Started',
  email_confirmed: 'Email confirmed',
  awaiting_payment: 'Awaiting payment',
  paid: 'Paid',
  case_created: 'Case created',
  expired: 'Expired',
};

export const REG_PORTAL_PAYERS = ['customer', 'subject'] as const;
export type RegPortalPayer = (typeof REG_PORTAL_PAYERS)[number];

/** The details a portal may ask at registration (names are always asked and required). */
export const REG_PORTAL_FIELD_MODES = ['required', 'optional', 'hidden'] as const;
export type RegPortalFieldMode = (typeof REG_PORTAL_FIELD_MODES)[number];

export const REG_PORTAL_PATH_MAX = 60;
export const REG_PORTAL_TITLE_MAX = 120;
export const REG_PORTAL_INTRODUCTION_MAX = 2000;
export const REG_PORTAL_PATH_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const fieldMode = z.enum(REG_PORTAL_FIELD_MODES);

const regPortalFields = {
  segment_id: idSchema,
  path: z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, MESSAGES.required)
    .max(REG_PORTAL_PATH_MAX, maxCharacters(REG_PORTAL_PATH_MAX))
    .regex(REG_PORTAL_PATH_PATTERN, MESSAGES.invalidCharacters),
  title: z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, MESSAGES.required)
    .max(REG_PORTAL_TITLE_MAX, maxCharacters(REG_PORTAL_TITLE_MAX)),
  introduction: z
    .string()
    .trim()
    .max(REG_PORTAL_INTRODUCTION_MAX, maxCharacters(REG_PORTAL_INTRODUCTION_MAX)),
  payer: z.enum(REG_PORTAL_PAYERS),
  ask_email: fieldMode,
  ask_dob: fieldMode,
  ask_phone: fieldMode,
  open: z.boolean(),
  /** The most registrations it takes, or null for no limit. */
  registration_limit: z.number().int().min(1).nullable(),
  /** The last day it takes registrations (YYYY-MM-DD), or null. */
  closes_on: isoDateSchema.nullable(),
};

/** POST /api/processes/{id}/registration-portals/ */
export const regPortalCreate = z.object({
  ...regPortalFields,
  introduction: regPortalFields.introduction.default(''),
  payer: regPortalFields.payer.default('customer'),
  ask_email: fieldMode.default('required'),
  ask_dob: fieldMode.default('required'),
  ask_phone: fieldMode.default('optional'),
  open: z.boolean().default(true),
  registration_limit: regPortalFields.registration_limit.default(null),
  closes_on: regPortalFields.closes_on.default(null),
});
export type RegPortalCreate = z.output<typeof regPortalCreate>;

/** PATCH /api/processes/{id}/registration-portals/{regPortalId}/ */
export const regPortalPatch = z.object(regPortalFields).partial();
export type RegPortalPatch = z.output<typeof regPortalPatch>;

export const regPortalOut = z.strictObject({
  id: z.number(),
  process_id: z.number(),
  segment_id: z.number(),
  segment_name: z.string(),
  path: z.string(),
  title: z.string(),
  introduction: z.string(),
  payer: z.enum(REG_PORTAL_PAYERS),
  ask_email: fieldMode,
  ask_dob: fieldMode,
  ask_phone: fieldMode,
  open: z.boolean(),
  registration_limit: z.number().nullable(),
  closes_on: z.string().nullable(),
  registration_count: z.number(),
  /** '/self-initiate/{segmentId}/{path}' */
  public_link: z.string(),
  created_at: timestampOut,
  updated_at: timestampOut,
});
export type RegPortalOut = z.output<typeof regPortalOut>;

/** Why a portal takes no registrations now (null when it does). */
export const REG_PORTAL_UNAVAILABLE = ['closed', 'full', 'past_closing_date'] as const;
export type RegPortalUnavailable = (typeof REG_PORTAL_UNAVAILABLE)[number];
export const REG_PORTAL_UNAVAILABLE_MESSAGES: Record<RegPortalUnavailable, string> = {
  closed: 'This registration is closed.',
  full: 'This registration is full: it takes no more registrations.',
  past_closing_date: 'This registration has closed: its closing date has passed.',
};

/** GET /api/public/self-initiate/{segmentId}/{portalPath}/ */
export const regPortalPublicOut = z.strictObject({
  title: z.string(),
  introduction: z.string(),
  brand: z.string(),
  customer_name: z.string(),
  process_name: z.string(),
  /** What will be checked: the process's requirement labels. */
  checks: z.array(z.string()),
  payer: z.enum(REG_PORTAL_PAYERS),
  /** The price in pence when the subject pays, else null. */
  price_pence: z.number().nullable(),
  currency: z.string().nullable(),
  ask_email: fieldMode,
  ask_dob: fieldMode,
  ask_phone: fieldMode,
  unavailable: z.enum(REG_PORTAL_UNAVAILABLE).nullable(),
  unavailable_message: z.string().nullable(),
});
export type RegPortalPublicOut = z.output<typeof regPortalPublicOut>;

/** POST /api/public/self-initiate/{segmentId}/{portalPath}/ (and /api/s/...): the portal's
 * ask_* modes decide which of email, dob, phone are required; the server checks them. */
export const registrationRequest = z.object({
  first_name: forenameSchema,
  last_name: surnameSchema,
  email: emailSchema,
  dob: isoDateSchema.optional(),
  phone: phoneSchema.optional(),
});
export type RegistrationRequest = z.output<typeof registrationRequest>;

/** What a registration answers: its state and where the subject goes next. */
export const registrationResultOut = z.strictObject({
  registration_id: z.number(),
  state: z.enum(REGISTRATION_STATES),
  /** true when the same person had already registered on this portal. */
  existing: z.boolean(),
  /** '/payment-portal/{id}' when awaiting payment, the case portal when the case exists. */
  next_url: z.string().nullable(),
});
export type RegistrationResultOut = z.output<typeof registrationResultOut>;

export const portalRegistrationEventOut = z.strictObject({
  at: timestampOut,
  state: z.enum(REGISTRATION_STATES),
  note: z.string(),
});

/** A registration in /api/portal-registrations/ */
export const portalRegistrationOut = z.strictObject({
  id: z.number(),
  reg_portal_id: z.number(),
  portal_title: z.string(),
  process_id: z.number(),
  subject_id: z.number().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  dob: z.string().nullable(),
  phone: z.string().nullable(),
  state: z.enum(REGISTRATION_STATES),
  started_at: timestampOut,
  expires_at: timestampOut,
  email_confirmed_at: nullableTimestampOut,
  case_id: z.number().nullable(),
  payment_intent_id: z.number().nullable(),
});
export type PortalRegistrationOut = z.output<typeof portalRegistrationOut>;

/** GET /api/portal-registrations/{id}/ */
export const portalRegistrationDetailOut = portalRegistrationOut.extend({
  events: z.array(portalRegistrationEventOut),
});
export type PortalRegistrationDetailOut = z.output<typeof portalRegistrationDetailOut>;

/**
 * POST /api/public/self-initiate/{segmentId}/{portalPath}/confirm/: the emailed link's token and
 * the password the person chooses. The answer signs them in (the session cookie as login sets
 * it) and is a registrationResultOut. The server adds its password rule (the common-passwords
 * list), whose message comes back on `password`.
 */
export const registrationConfirm = z.object({
  token: z.string({ error: MESSAGES.required }).min(1, MESSAGES.required).max(200),
  password: z
    .string({ error: MESSAGES.required })
    .max(200, maxCharacters(200))
    .pipe(passwordStrengthSchema({ minLength: 12, mixedCase: false, special: false })),
});
export type RegistrationConfirm = z.output<typeof registrationConfirm>;

/** The messages of the registration endpoints (400s: `{"field": [message]}`, else `{detail}`). */
export const REGISTRATION_MESSAGES = {
  invalidToken: 'This confirmation link is invalid or has expired.',
  expired: 'This registration has expired: please register again.',
  pathTaken: 'This segment already has a registration portal with this path.',
  segmentNotFound: 'Invalid pk - object does not exist.',
  notStarted: 'Only a registration that is started can have its confirmation sent again.',
  confirmationSent: 'The confirmation email has been sent again.',
  portalInUse: 'This registration portal has registrations: close it instead.',
  missingDetails: 'Your account needs a first name, last name and email to register.',
} as const;

const listParam = (description: string) =>
  z
    .union([z.string().max(2000), z.array(z.string().max(2000)).max(100)])
    .optional()
    .describe(description);

/** GET /api/portal-registrations/: newest first; text as sent, read with the API's rules. */
export const portalRegistrationListFilters = {
  state: listParam(`registration states, comma-separated (${REGISTRATION_STATES.join(', ')})`),
  reg_portal: listParam('registration portal ids, comma-separated (any of them)'),
  process: listParam('process ids, comma-separated (any of them)'),
  q: listParam('part of the first name, last name or email, any case'),
  started_from: listParam('started on or after this date, YYYY-MM-DD (UTC)'),
  started_to: listParam('started on or before this date, YYYY-MM-DD (UTC)'),
};

/** The whole query of GET /api/portal-registrations/ (with page and page_size, max 100). */
export const portalRegistrationListQuery = z.object({
  ...portalRegistrationListFilters,
  page: listParam('the page, from 1'),
  page_size: listParam('rows per page (at most 100)'),
});
export type PortalRegistrationListQuery = z.input<typeof portalRegistrationListQuery>;
