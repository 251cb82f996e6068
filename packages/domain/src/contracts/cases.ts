import { z } from 'zod';
import { caseActivityOut } from './case-activities.js';
import { idSchema, nullableTimestampOut, timestampOut } from './common.js';
import { casePaymentOut } from './payment-methods.js';
import { subjectBriefOut, subjectCreate, subjectOut } from './subjects.js';

export const CASE_DECISIONS = ['satisfactory', 'unsatisfactory'] as const;

/** POST /api/cases/: a process and an existing subject or a new one. */
export const caseCreate = z.object({
  process: idSchema,
  subject: idSchema.optional(),
  new_subject: subjectCreate.optional(),
});
export type CaseCreate = z.output<typeof caseCreate>;

/** POST /api/cases/{id}/record_decision/. */
export const caseDecision = z.object({
  decision: z.enum(CASE_DECISIONS, { error: `Choose one of: ${CASE_DECISIONS.join(', ')}.` }),
  notes: z.string().trim().max(2000).default(''),
});

/** POST /api/cases/{id}/cancel/ (the body may be left out). */
export const caseCancel = z.object({ reason: z.string().trim().max(2000).default('') });

const processBrief = z.strictObject({ id: z.number(), name: z.string() });

/**
 * One row of GET /api/cases/. The server writes these rows itself (cases.repo.ts, the hot
 * list); a test parses them with this schema, strict, so the two cannot drift apart.
 */
export const caseListItemOut = z.strictObject({
  id: z.number(),
  state: z.string(),
  state_display: z.string(),
  process: processBrief,
  subject: subjectBriefOut,
  created_at: timestampOut,
  updated_at: timestampOut,
  completed_at: nullableTimestampOut,
  decision: z.string().nullable(),
  is_archived: z.boolean(),
  flagged: z.boolean(),
  customer: z.number(),
});
export type CaseListItemOut = z.infer<typeof caseListItemOut>;

/** GET /api/cases/{id}/ (and the answer of its actions). */
export const caseDetailOut = z.strictObject({
  id: z.number(),
  customer: z.number(),
  state: z.string(),
  state_display: z.string(),
  process: processBrief,
  subject: subjectOut,
  created_at: timestampOut,
  updated_at: timestampOut,
  completed_at: nullableTimestampOut,
  decision: z.string().nullable(),
  decision_notes: z.string(),
  cancelled_reason: z.string(),
  is_archived: z.boolean(),
  archived_at: nullableTimestampOut,
  flagged: z.boolean(),
  summary: z.strictObject({
    activities: z.number(),
    open: z.number(),
    complete: z.number(),
    cancelled: z.number(),
  }),
  case_activities: z.array(caseActivityOut),
  archivable: z.boolean(),
  /**
   * The case's charge to the customer's default card (issue 30), null when it is not charged
   * (free, invoiced, no pricebook): `payment_needed` holds the subject's invitation back.
   */
  payment: casePaymentOut.nullable(),
});
export type CaseDetailOut = z.infer<typeof caseDetailOut>;
