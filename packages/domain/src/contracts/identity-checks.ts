import { z } from 'zod';
import { onlineIdvOut } from './portal.js';

// The identity kinds' resources (issue 27; apps/server/src/modules/online-idv):
//   GET /api/{,ops/}idv-case-activities/        the online identity activities (paged; filters
//       case, state, verified=true|false): each with its case, subject, state and the case's
//       online identity check data (spec point 3) and result
//   GET /api/{,ops/}idv-case-activities/{id}/   one of them
//   POST /api/ops/case-activities/{id}/idv-approve/ {reason}   operations approve the identity
//       by hand (audited): the activity completes (400 {reason} without one, {state} finished)
//   POST /api/{,ops/}case-activities/{id}/rtw-check/ {outcome, expiry_date?, documents, notes}
//       the manual right-to-work check (cases.change_caseactivity): the activity completes

export const idvCaseActivityOut = z.strictObject({
  id: z.number(),
  case: z.number(),
  subject: z.strictObject({
    id: z.number(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
  }),
  state: z.string(),
  state_display: z.string(),
  online_idv: onlineIdvOut,
  /** The kind's result data (onlineIdvResultDataSchema, checked when the engine writes it). */
  result_data: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type IdvCaseActivityOut = z.infer<typeof idvCaseActivityOut>;

/** What a manual approval or check answers: the activity's state and result. */
export const identityActionOut = z.strictObject({
  id: z.number(),
  state: z.string(),
  result_data: z.record(z.string(), z.unknown()),
});
export type IdentityActionOut = z.infer<typeof identityActionOut>;
