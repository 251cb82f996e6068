import { z } from 'zod';
import { isoDateSchema } from '../dates.js';
import { IDENTITY_CHECK_LEVELS } from '../dbs-identity-routes.js';
import { MESSAGES } from '../messages.js';
import { optionalText } from '../text-rules.js';
import { dateOut } from './case-data.js';
import { nullableTimestampOut } from './common.js';

// DBS details of a case (spec point 3: idv_option, video_call_date, in_person_expected_date,
// discrepancy_notes, state, verified_by, countersigned_by) and right-to-work details (point 3,
// plus the route and share code the subject gives in the portal's rtw section).
//   customer  GET/PATCH /api/case-dbs-details/{case}/      (cases.view_case / cases.change_case)
//   ops       GET/PATCH /api/ops/case-dbs-details/{case}/
//   subject   GET/PATCH /api/s/case-dbs-details/{case}/     (own open case; not after submission)
//   POST .../verify/ {discrepancy_notes?}  pending -> verified (cases.change_caseactivity, or ops),
//                                          once the evidence meets an identity route (400 otherwise)
//   POST .../countersign/                  verified -> countersigned
//                                          (cases.countersign_casedbsdetails, or ops)
// and GET/PATCH /api/{,ops/,s/}case-rtw-details/{case}/. A case without a record answers a blank
// one (state pending), created by its first PATCH.

/** How the applicant's identity will be verified for the criminal-record check. */
export const IDV_OPTIONS = ['online', 'in-person', 'video-call'] as const;
export type IdvOption = (typeof IDV_OPTIONS)[number];
export const IDV_OPTION_LABELS: Record<IdvOption, string> = {
  online: 'Online, with a digital identity check',
  'in-person': 'In person, showing my documents',
  'video-call': 'On a video call, showing my documents',
};

/** pending (awaiting verification) -> verified (awaiting countersigning) -> countersigned. */
export const DBS_DETAILS_STATES_ALL = ['pending', 'verified', 'countersigned'] as const;
export type DbsDetailsStateAll = (typeof DBS_DETAILS_STATES_ALL)[number];

/** Our own wording (not in the spec). */
export const DBS_DETAILS_MESSAGES = {
  verifiedLocked: 'The identity has been verified: this can no longer be changed.',
  alreadyVerified: 'The identity has already been verified.',
  verifyFirst: 'The identity must be verified before countersigning.',
  alreadyCountersigned: 'The application has already been countersigned.',
  dateInPast: 'The date cannot be in the past.',
  caseClosed: 'This case is closed: its application can no longer be verified or countersigned.',
} as const;

const DISCREPANCY_NOTES_MAX = 400;
const discrepancyNotes = optionalText(
  z.string().max(DISCREPANCY_NOTES_MAX, MESSAGES.notesMaxLength),
);
/** A date or none ('' and null are none). */
const optionalDate = z.preprocess(
  (v) => (v === '' || v === undefined ? null : v),
  z.union([isoDateSchema, z.null()]),
);

/** What the subject may set: the route and its date. */
export const dbsDetailsSubjectFields = z.object({
  idv_option: z.union([z.enum(IDV_OPTIONS, { error: MESSAGES.required }), z.literal('')]),
  video_call_date: optionalDate,
  in_person_expected_date: optionalDate,
});

/** Staff and ops also record discrepancies. */
export const dbsDetailsFields = dbsDetailsSubjectFields.extend({
  discrepancy_notes: discrepancyNotes,
});

export const caseDbsDetailsSubjectPatch = dbsDetailsSubjectFields.partial();
export const caseDbsDetailsPatch = dbsDetailsFields.partial();
export type CaseDbsDetailsPatch = z.input<typeof caseDbsDetailsPatch>;

/**
 * Rules on the merged record (`today`: 'YYYY-MM-DD'): with `complete`, an option is required
 * (the portal's Continue); the date of the chosen route is required and not in the past.
 */
export function refineDbsDetails(
  d: { idv_option: string; video_call_date: string | null; in_person_expected_date: string | null },
  ctx: z.RefinementCtx,
  today: string,
  complete = false,
): void {
  if (complete && d.idv_option === '') {
    ctx.addIssue({ code: 'custom', path: ['idv_option'], message: MESSAGES.required });
  }
  const field =
    d.idv_option === 'video-call'
      ? 'video_call_date'
      : d.idv_option === 'in-person'
        ? 'in_person_expected_date'
        : null;
  if (!field) return;
  const value = d[field];
  if (!value) {
    if (complete) ctx.addIssue({ code: 'custom', path: [field], message: MESSAGES.required });
  } else if (value < today) {
    ctx.addIssue({ code: 'custom', path: [field], message: DBS_DETAILS_MESSAGES.dateInPast });
  }
}

/** The subject's form: every rule, an option required. */
export function dbsDetailsSubjectIn(today: string) {
  return dbsDetailsSubjectFields.superRefine((d, ctx) => refineDbsDetails(d, ctx, today, true));
}

export const verifyDbsDetailsIn = z.object({ discrepancy_notes: discrepancyNotes.optional() });
export type VerifyDbsDetailsIn = z.input<typeof verifyDbsDetailsIn>;

/**
 * The identity check as it stands (staff and ops only): the case's check level, the evidence
 * counted (documents not rejected, the online identity check) and whether it meets a route,
 * with what is still needed.
 */
export const identityCheckOut = z.strictObject({
  level: z.enum(IDENTITY_CHECK_LEVELS),
  basis: z.enum(['online', 'documents']).nullable(),
  met: z.boolean(),
  route: z.union([z.literal(1), z.literal(2), z.literal(3)]).nullable(),
  problem: z.string(),
  online_idv_passed: z.boolean(),
  documents: z.array(
    z.strictObject({ id: z.number(), name: z.string(), group: z.enum(['1', '2a', '2b']) }),
  ),
});
export type IdentityCheckOut = z.infer<typeof identityCheckOut>;

export const caseDbsDetailsOut = z.strictObject({
  case: z.number(),
  idv_option: z.union([z.enum(IDV_OPTIONS), z.literal('')]),
  video_call_date: dateOut,
  in_person_expected_date: dateOut,
  discrepancy_notes: z.string(),
  state: z.enum(DBS_DETAILS_STATES_ALL),
  verified_by: z.string().nullable(),
  verified_at: nullableTimestampOut,
  /** The route the documents met when verified (null online or before verification). */
  identity_route: z.number().nullable(),
  countersigned_by: z.string().nullable(),
  countersigned_at: nullableTimestampOut,
  identity_check: identityCheckOut,
});
export type CaseDbsDetailsOut = z.infer<typeof caseDbsDetailsOut>;

/** The subject's restricted view: no notes, no other people's names. */
export const caseDbsDetailsSubjectOut = caseDbsDetailsOut.pick({
  case: true,
  idv_option: true,
  video_call_date: true,
  in_person_expected_date: true,
  state: true,
});
export type CaseDbsDetailsSubjectOut = z.infer<typeof caseDbsDetailsSubjectOut>;

// ---------------------------------------------------------------------------------------------
// Right to work

/** A share code for the online check, or documents from the right-to-work list. */
export const RTW_ROUTES = ['share-code', 'documents'] as const;
export type RtwRoute = (typeof RTW_ROUTES)[number];
export const RTW_ROUTE_LABELS: Record<RtwRoute, string> = {
  'share-code': 'I have a share code (online check)',
  documents: 'I will show documents from the right to work list',
};

/** 9 characters, letters and digits, starting with W (PROVIDERS.md); spaces and dashes dropped. */
export const SHARE_CODE_PATTERN = /^W[A-Z0-9]{8}$/;
export const normaliseShareCode = (value: string): string =>
  value.replace(/[\s-]+/g, '').toUpperCase();

export const rtwDetailsFields = z.object({
  route: z.union([z.enum(RTW_ROUTES, { error: MESSAGES.required }), z.literal('')]),
  share_code: z
    .string()
    .transform(normaliseShareCode)
    .pipe(z.union([z.literal(''), z.string().regex(SHARE_CODE_PATTERN, MESSAGES.invalidFormat)])),
});
export const caseRtwDetailsPatch = rtwDetailsFields.partial();
export type CaseRtwDetailsPatch = z.input<typeof caseRtwDetailsPatch>;

/** With `complete` (the portal's Continue): a route, and a share code for the online check. */
export function refineRtwDetails(
  d: { route: string; share_code: string },
  ctx: z.RefinementCtx,
  complete = false,
): void {
  if (!complete) return;
  if (d.route === '') ctx.addIssue({ code: 'custom', path: ['route'], message: MESSAGES.required });
  if (d.route === 'share-code' && d.share_code === '') {
    ctx.addIssue({ code: 'custom', path: ['share_code'], message: MESSAGES.required });
  }
}

export const rtwDetailsIn = rtwDetailsFields.superRefine((d, ctx) =>
  refineRtwDetails(d, ctx, true),
);

export const caseRtwDetailsOut = z.strictObject({
  case: z.number(),
  route: z.union([z.enum(RTW_ROUTES), z.literal('')]),
  share_code: z.string(),
  verification_method_display: z.string(),
  checked_by: z.string().nullable(),
  checked_at: nullableTimestampOut,
  state_display: z.string(),
});
export type CaseRtwDetailsOut = z.infer<typeof caseRtwDetailsOut>;
