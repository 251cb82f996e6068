import { z } from 'zod';
import { NAME_MISMATCH_REASONS, type NameMismatchReason } from '../name-mismatch.js';

/*
 * The `result_data` of the two identity kinds (spec point 2, result panels): online identity
 * verification (a certified identity service provider) and right to work (the Home Office's
 * share-code check, or a manual document check). Every field is optional: a panel shows what is
 * there and its fallback texts for the rest. Dates are 'YYYY-MM-DD', times ISO timestamps.
 */

const text = z.string().max(200).nullish();
const date = z.string().max(40).nullish();
const flag = z.boolean().nullish();

const MISMATCH_VALUES = NAME_MISMATCH_REASONS.map((r) => r.value) as [
  NameMismatchReason,
  ...NameMismatchReason[],
];

/** Who approved an identity by hand, when and why (operations' manual approval, audited). */
export const manualApprovalSchema = z.object({
  by: z.string().max(200),
  at: z.string().max(40),
  reason: z.string().max(400),
});
export type ManualApproval = z.infer<typeof manualApprovalSchema>;

/** How the identity was verified: the provider's app, a bank, a Post Office branch, by hand. */
export const IDV_METHODS = ['digital', 'bank', 'post-office', 'manual'] as const;
export type IdvMethod = (typeof IDV_METHODS)[number];

/** `result_data` of online-idv. */
export const onlineIdvResultDataSchema = z.object({
  /** The provider's outcome: passed or failed (null while the person has not finished). */
  outcome: z.enum(['passed', 'failed']).nullish(),
  /** Spec point 4's rule (isOnlineIdentityVerified) over the data below. */
  verified: flag,
  method: z.enum(IDV_METHODS).nullish(),
  forename: text,
  middlename: text,
  surname: text,
  dob: date,
  current_address: z
    .object({
      line_one: text,
      line_two: text,
      town: text,
      postcode: text,
      country: text,
    })
    .nullish(),
  /** The trust framework level reached ('medium', 'high'), null for none. */
  level_of_assurance: text,
  /** The right-to-work scheme's requirements met (a digital right-to-work check). */
  rtw_verified: flag,
  /** The DBS scheme's requirements met: 'verified'; otherwise the identity is checked by hand. */
  dbs_identity: z.enum(['verified', 'manual']).nullish(),
  /** The name on the documents differs from the account's, and why (spec point 5). */
  name_mismatch: z.object({ reason: z.enum(MISMATCH_VALUES), document_name: text }).nullish(),
  ibv_verified: flag,
  ibv_session: text,
  manual_idv_approved: flag,
  manual_approval: manualApprovalSchema.nullish(),
  /** The provider's session. */
  session: text,
  failure_reason: text,
  completed_at: date,
});
export type OnlineIdvResultData = z.infer<typeof onlineIdvResultDataSchema>;

/** Online identity panel texts (spec point 2: manual, in-branch Post Office, right to work). */
export const ONLINE_IDV_PANEL_TEXTS = {
  dbsVerified: 'Verified',
  dbsManual: 'Manual',
  notFinished: 'The online identity check has not been completed yet.',
  failed: 'The identity could not be verified online.',
} as const;

/** Right-to-work outcomes: a permanent right, a time-limited one, none, or no record found. */
export const RTW_OUTCOMES = ['permanent', 'time-limited', 'no-right', 'not-found'] as const;
export type RtwOutcome = (typeof RTW_OUTCOMES)[number];
export const RTW_OUTCOME_LABELS: Record<RtwOutcome, string> = {
  permanent: 'Right to work confirmed',
  'time-limited': 'Time-limited right to work',
  'no-right': 'No right to work',
  'not-found': 'No record found for the share code',
};

/** How the right to work was checked. */
export const RTW_METHODS = ['share-code', 'documents'] as const;
export type RtwMethod = (typeof RTW_METHODS)[number];
export const RTW_METHOD_LABELS: Record<RtwMethod, string> = {
  'share-code': 'Online check (Home Office share code)',
  documents: 'Manual document check',
};

/** A manual check's outcomes (no share code: 'not-found' does not apply). */
export const RTW_MANUAL_OUTCOMES = ['permanent', 'time-limited', 'no-right'] as const;

/** `result_data` of rtw. */
export const rtwResultDataSchema = z.object({
  method: z.enum(RTW_METHODS).nullish(),
  outcome: z.enum(RTW_OUTCOMES).nullish(),
  forename: text,
  surname: text,
  nationality: text,
  /** The Home Office's words for the status. */
  status_text: text,
  conditions: z.array(z.string().max(300)).max(20).nullish(),
  expiry_date: date,
  /** A time-limited right: when the follow-up check is due. */
  follow_up_date: date,
  /** The Home Office's photo of the person (a data: URL), never logged elsewhere. */
  photo: z.string().max(20_000).nullish(),
  share_code: text,
  checked_by: text,
  checked_at: date,
  /** The documents seen in a manual check (their names, from the right-to-work list). */
  documents: z.array(z.string().max(200)).max(20).nullish(),
  notes: z.string().max(400).nullish(),
});
export type RtwResultData = z.infer<typeof rtwResultDataSchema>;

/** Right-to-work panel texts (our own wording). */
export const RTW_PANEL_TEXTS = {
  notChecked: 'The right to work has not been checked yet.',
  awaitingManual: 'Waiting for a manual right to work check of the documents.',
  followUp: (date: string) => `A follow-up right to work check is due by ${date}.`,
} as const;

/**
 * The follow-up date of a time-limited right: 28 days before it ends, so that the follow-up check
 * is made while the right still holds (and never before the check itself).
 */
export function rtwFollowUpDate(expiry: string, checkedOn: string): string {
  const d = new Date(`${expiry}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 28);
  const follow = d.toISOString().slice(0, 10);
  return follow < checkedOn ? checkedOn : follow;
}

/** The manual check a member of staff records (documents route, or after the online check). */
export const rtwManualCheckIn = z
  .object({
    outcome: z.enum(RTW_MANUAL_OUTCOMES, { error: 'Required' }),
    expiry_date: z
      .union([z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Invalid format'), z.literal('')])
      .optional(),
    documents: z.array(z.string().min(1).max(200)).max(20).default([]),
    notes: z.string().max(400, 'Max length 400').default(''),
  })
  .superRefine((d, ctx) => {
    if (d.outcome === 'time-limited' && !d.expiry_date) {
      ctx.addIssue({ code: 'custom', path: ['expiry_date'], message: 'Required' });
    }
    if (d.outcome !== 'no-right' && d.documents.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['documents'], message: 'Required' });
    }
  });
export type RtwManualCheckIn = z.input<typeof rtwManualCheckIn>;

/** Operations' manual approval of an identity: a reason is required. */
export const idvManualApprovalIn = z.object({
  reason: z.string().trim().min(1, 'Required').max(400, 'Max length 400'),
});
export type IdvManualApprovalIn = z.input<typeof idvManualApprovalIn>;
