import { z } from 'zod';
import { APPLICATION_KINDS } from '../lms.js';
import { MESSAGES, maxCharacters } from '../messages.js';
import { nullableTimestampOut, timestampOut } from './common.js';
import { publicApplicationPortalOut } from './lms.js';

/**
 * Licence applications (issue 32): a subject applies on an application portal, pays the fee,
 * completes the case of the definition's requirements, and the council grants, refuses or asks
 * for more. Errors are the spec's field-error shape: `{field: ['message']}` with
 * `non_field_errors` for the rest.
 */

export const APPLICATION_STATES = [
  'awaiting_payment',
  'in_progress',
  'more_info_requested',
  'granted',
  'refused',
  'withdrawn',
  'expired',
] as const;
export type ApplicationState = (typeof APPLICATION_STATES)[number];
export const APPLICATION_STATE_LABELS: Record<ApplicationState, string> = {
  awaiting_payment: 'Awaiting payment',
  in_progress: 'In progress',
  more_info_requested: 'More information requested',
  granted: 'Granted',
  refused: 'Refused',
  withdrawn: 'Withdrawn',
  expired: 'Expired',
};
/** The states of an application still open (one per subject and portal at a time). */
export const OPEN_APPLICATION_STATES = [
  'awaiting_payment',
  'in_progress',
  'more_info_requested',
] as const satisfies readonly ApplicationState[];
export function isOpenApplicationState(state: ApplicationState): boolean {
  return (OPEN_APPLICATION_STATES as readonly string[]).includes(state);
}

/** The HMRC tax check (GOV.UK): a 9-character code, valid 120 days from its issue. */
export const TAX_CHECK_CODE_LENGTH = 9;
export const TAX_CHECK_CODE_VALID_DAYS = 120;
export const TAX_CHECK_CODE_PATTERN = /^[A-Z0-9]{9}$/;
export const TAX_CHECK_CODE_INVALID = 'Enter the 9-character tax check code (letters and digits).';
export const TAX_CHECK_CODE_REQUIRED =
  'Enter your tax check code: a renewal, a re-application within a year of a lapsed licence or a licence of the same type held with another authority needs one.';
export const TAX_CHECK_CODE_EXPIRED =
  'This tax check code has expired (codes are valid for 120 days). Get a new code from HMRC.';
export const TAX_CHECK_CODE_UNKNOWN =
  'HMRC does not recognise this tax check code. Check it or get a new one from HMRC.';
export const TAX_RESPONSIBILITIES_REQUIRED =
  'Confirm that you are aware of your tax responsibilities.';

/** 'code': the applicant gives a tax check code; 'confirm': they confirm their tax responsibilities. */
export const TAX_CHECK_NEEDS = ['code', 'confirm'] as const;
export type TaxCheckNeed = (typeof TAX_CHECK_NEEDS)[number];
export const TAX_CHECK_STATUSES = ['not_checked', 'confirmed', 'failed', 'expired'] as const;
export type TaxCheckStatus = (typeof TAX_CHECK_STATUSES)[number];
export const TAX_CHECK_STATUS_LABELS: Record<TaxCheckStatus, string> = {
  not_checked: 'Not checked',
  confirmed: 'Confirmed with HMRC',
  failed: 'Not recognised by HMRC',
  expired: 'Expired',
};

export const APPLICATION_TEXT_MAX = 4000;

const kind = z.enum(APPLICATION_KINDS);
const state = z.enum(APPLICATION_STATES);
const message = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .max(APPLICATION_TEXT_MAX, maxCharacters(APPLICATION_TEXT_MAX));

/**
 * POST /api/lms/s/application-portals/{id}/apply/. `tax_check_code` where the portal says
 * `tax_check: 'code'`, `tax_responsibilities_confirmed: true` where it says 'confirm'
 * (a renewal also accepts `licence`: the id of the holder's licence being renewed; omitted,
 * the holder's licence of the definition).
 */
export const applicationApplyInput = z.object({
  tax_check_code: z
    .string()
    .trim()
    .toUpperCase()
    .transform((s) => s.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(TAX_CHECK_CODE_PATTERN, TAX_CHECK_CODE_INVALID))
    .optional(),
  tax_responsibilities_confirmed: z.boolean().optional(),
  /** Declared: the applicant holds a licence of the same type with another authority. */
  holds_licence_elsewhere: z.boolean().optional(),
});
export type ApplicationApplyInput = z.output<typeof applicationApplyInput>;

/** The answer to apply: the application and where to go next. */
export const applicationApplyOut = z.strictObject({
  application_id: z.number(),
  state,
  /** `/payment-portal/{intentId}` when a fee is due, else the case portal's first page. */
  next_url: z.string(),
});
export type ApplicationApplyOut = z.infer<typeof applicationApplyOut>;

/** A subject's open application on a portal (on the portal page and their dashboard). */
export const myApplicationOut = z.strictObject({
  id: z.number(),
  reference: z.string(),
  state,
  state_label: z.string(),
  next_url: z.string().nullable(),
});

/** GET /api/lms/s/application-portals/ and /{id}/: an open portal for the signed-in subject. */
export const subjectApplicationPortalOut = publicApplicationPortalOut.extend({
  /** What this subject must give: a tax check code or the confirmation. */
  tax_check: z.enum(TAX_CHECK_NEEDS),
  my_application: myApplicationOut.nullable(),
});
export type SubjectApplicationPortalOut = z.infer<typeof subjectApplicationPortalOut>;

/** GET /api/lms/s/applications/: the subject's applications (their dashboard). */
export const subjectApplicationOut = z.strictObject({
  id: z.number(),
  reference: z.string(),
  portal: z.number(),
  portal_title: z.string(),
  definition_name: z.string(),
  customer: z.number(),
  customer_name: z.string(),
  kind,
  kind_label: z.string(),
  state,
  state_label: z.string(),
  fee_pence: z.number(),
  fee_display: z.string(),
  /** Pay (awaiting payment) or the case portal (in progress); null once decided. */
  next_url: z.string().nullable(),
  case_id: z.number().nullable(),
  licence_number: z.string().nullable(),
  /**
   * '/s/application-portals/{id}': the holder's "Renew" on the granted application of their
   * licence (its latest), while the licence is renewable (isRenewableLicence) and the council has
   * an open renewal portal of its definition; else null.
   */
  renew_url: z.string().nullable(),
  submitted_at: timestampOut,
  /** The council's question while more information is requested, else null. */
  info_request: z.string().nullable(),
});
export type SubjectApplicationOut = z.infer<typeof subjectApplicationOut>;

/** POST /api/lms/s/applications/{id}/respond/: the subject's answer to a request for more. */
export const applicationRespondInput = z.object({ message });
export type ApplicationRespondInput = z.output<typeof applicationRespondInput>;

export const applicationCheckOut = z.strictObject({
  /** The activity kind: 'dbs_enhanced'. */
  kind: z.string(),
  label: z.string(),
  /** The activity's state ('complete' when done). */
  state: z.string(),
  state_label: z.string(),
});

export const applicationTaxCheckOut = z.strictObject({
  needed: z.enum(TAX_CHECK_NEEDS),
  /** The code given (needed 'code'), else null. */
  code: z.string().nullable(),
  status: z.enum(TAX_CHECK_STATUSES),
  status_label: z.string(),
  checked_at: nullableTimestampOut,
  /** HMRC's answer in words, or the confirmation text for 'confirm'. */
  message: z.string(),
});

export const applicationEventOut = z.strictObject({
  id: z.number(),
  /** 'apply', 'paid', 'request_info', 'respond', 'tax_check', 'grant', 'refuse'. */
  action: z.string(),
  from_state: state.nullable(),
  to_state: state,
  message: z.string(),
  actor_name: z.string(),
  created_at: timestampOut,
});

/** One entry of the council's register of refusals, suspensions and revocations. */
export const REGISTER_KINDS = ['refusal', 'suspension', 'revocation'] as const;
export type RegisterKind = (typeof REGISTER_KINDS)[number];
export const REGISTER_KIND_LABELS: Record<RegisterKind, string> = {
  refusal: 'Refusal',
  suspension: 'Suspension',
  revocation: 'Revocation',
};
export const registerEntryOut = z.strictObject({
  kind: z.enum(REGISTER_KINDS),
  kind_label: z.string(),
  /** The subject (holder or applicant). */
  subject: z.number(),
  name: z.string(),
  /** ISO date or null. */
  dob: z.string().nullable(),
  licence_id: z.number().nullable(),
  licence_number: z.string().nullable(),
  application_id: z.number().nullable(),
  definition_name: z.string(),
  reason: z.string(),
  /** When it was decided. */
  date: timestampOut,
});
export type RegisterEntryOut = z.infer<typeof registerEntryOut>;

/** GET /api/lms/applications/ (list) and /{id}/ (detail adds `register_matches` and `events`). */
export const applicationOut = z.strictObject({
  id: z.number(),
  /** 'APP-000012'. */
  reference: z.string(),
  portal: z.number(),
  portal_title: z.string(),
  definition: z.number(),
  definition_name: z.string(),
  kind,
  kind_label: z.string(),
  /** The licence being renewed (renewals), else null. */
  renews_licence: z.number().nullable(),
  applicant: z.strictObject({
    subject: z.number(),
    name: z.string(),
    email: z.string(),
    /** ISO date or null. */
    dob: z.string().nullable(),
  }),
  state,
  state_label: z.string(),
  fee_pence: z.number(),
  fee_display: z.string(),
  payment_intent_id: z.number().nullable(),
  case_id: z.number().nullable(),
  checks: z.array(applicationCheckOut),
  checks_done: z.number(),
  checks_total: z.number(),
  tax_check: applicationTaxCheckOut,
  decision_reason: z.string(),
  info_request: z.string().nullable(),
  licence_id: z.number().nullable(),
  licence_number: z.string().nullable(),
  submitted_at: timestampOut,
  decided_at: nullableTimestampOut,
});
export type ApplicationOut = z.infer<typeof applicationOut>;
export const applicationDetailOut = applicationOut.extend({
  /** Register entries of the same person (name and date of birth) at this council. */
  register_matches: z.array(registerEntryOut),
  events: z.array(applicationEventOut),
});
export type ApplicationDetailOut = z.infer<typeof applicationDetailOut>;

/** POST /api/lms/applications/{id}/grant/. */
export const applicationGrantInput = z.object({
  conditions: z
    .string()
    .trim()
    .max(APPLICATION_TEXT_MAX, maxCharacters(APPLICATION_TEXT_MAX))
    .default(''),
});
export type ApplicationGrantInput = z.output<typeof applicationGrantInput>;
/** POST /api/lms/applications/{id}/refuse/. */
export const applicationRefuseInput = z.object({ reason: message });
export type ApplicationRefuseInput = z.output<typeof applicationRefuseInput>;
/** POST /api/lms/applications/{id}/request-info/. */
export const applicationRequestInfoInput = z.object({ message });
export type ApplicationRequestInfoInput = z.output<typeof applicationRequestInfoInput>;
/** POST /api/lms/licences/{id}/renew/ (council): opens a renewal application for the holder. */
export const licenceRenewInput = z.object({
  /** A renewal portal of the licence's definition; omitted: its open renewal portal. */
  portal: z.number().int().min(1).optional(),
  tax_check_code: applicationApplyInput.shape.tax_check_code,
});
export type LicenceRenewInput = z.output<typeof licenceRenewInput>;

/** Messages of the decisions (400, non_field_errors). */
export const APPLICATION_MESSAGES = {
  /** 'This application cannot be decided now (Awaiting payment).' */
  notDecidable: (label: string) => `This application cannot be decided now (${label}).`,
  cannotRequestInfo: (label: string) =>
    `More information cannot be requested on this application now (${label}).`,
  notAwaitingInfo: 'The council has not asked for more information on this application.',
  notWithdrawable: 'This application has been decided: it can no longer be withdrawn.',
  checksIncomplete: (labels: string[]) =>
    `The licence cannot be granted until every check is complete: ${labels.join(', ')}.`,
  taxNotConfirmed: 'Confirm the tax check code with HMRC before granting the licence.',
  noTaxCode: 'This application has no tax check code to confirm.',
  portalClosed: 'This application portal is closed.',
  renewalNeedsLicence: 'A renewal needs an active licence of this type that has not yet expired.',
  /** 409 on a grant: the applicant's licence of this type is suspended (no second licence). */
  holderSuspended: (number: string) =>
    `The applicant's licence ${number} of this type is suspended: reinstate or revoke it before granting this application.`,
  /**
   * 409 on a renewal's grant: the licence it renews was revoked or surrendered (or marked expired)
   * after the renewal was opened, so it is not renewed.
   */
  renewedLicenceEnded: (number: string, status: string) =>
    `The licence ${number} this application renews is ${status}: it can no longer be renewed. Refuse this application; the applicant may apply for a new licence.`,
  renewalOfAnotherOpen:
    "The holder's renewal of another licence is still open on this renewal portal: decide or withdraw it before renewing this one.",
} as const;

export * from '../lms-tax-check.js';
