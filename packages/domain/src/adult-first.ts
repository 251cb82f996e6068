import { z } from 'zod';
import { workforceIncludesAdult } from './activity-config.js';
import { MESSAGES, maxCharacters } from './messages.js';
import { hasPermission } from './permissions.js';
import { requiredText } from './text-rules.js';

/** Adult-first stages in order; operations moves a request forward one stage at a time. */
export const ADULT_FIRST_STAGES = ['pending', 'requested', 'result-received'] as const;
export type AdultFirstStage = (typeof ADULT_FIRST_STAGES)[number];
export const ADULT_FIRST_STAGE_LABELS: Record<AdultFirstStage, string> = {
  pending: 'Pending',
  requested: 'Requested',
  'result-received': 'Result Received',
};

/** The stage after this one, or `null` once the result is in. */
export function nextAdultFirstStage(stage: AdultFirstStage): AdultFirstStage | null {
  return ADULT_FIRST_STAGES[ADULT_FIRST_STAGES.indexOf(stage) + 1] ?? null;
}

export const ADULT_FIRST_RESULTS = [
  { value: 'no-match', label: 'No Match' },
  { value: 'wait-for-certificate', label: 'Wait for Certificate' },
  { value: 'certificate-already-issued', label: 'Certificate Already Issued' },
] as const;
export type AdultFirstResult = (typeof ADULT_FIRST_RESULTS)[number]['value'];

export const ADULT_FIRST_MAX_HOURS = 72;
export const ADULT_FIRST_NOTE = 'An adult first result can take up to 72 hours.';

/** Operations form at the pending stage: the linked DBS case and the reference are required. */
export const adultFirstPendingSchema = z.object({
  dbs_case: z.number({ error: MESSAGES.required }).int().positive(MESSAGES.required),
  reference: requiredText().max(30, maxCharacters(30)),
});

/** Operations form at the requested stage: a result is required. */
export const adultFirstRequestedSchema = z.object({
  result: z.enum(
    ADULT_FIRST_RESULTS.map((r) => r.value) as [AdultFirstResult, ...AdultFirstResult[]],
    { error: MESSAGES.required },
  ),
});

export interface AdultFirstOfferInput {
  /** Activity type code of the activity being viewed. */
  activityCode: string;
  /** Activity type codes the customer has. */
  customerActivityCodes: readonly string[];
  /** Activity type codes already on the case. */
  caseActivityCodes: readonly string[];
  /** The user's permissions. */
  permissions: readonly string[];
  config: { adult_barred_list?: boolean | null; workforce?: string | null } | null | undefined;
}

/** Requesting an adult-first check is offered only when all six conditions of point 6 hold. */
export function isAdultFirstOffered(input: AdultFirstOfferInput): boolean {
  return (
    input.activityCode === 'dbs-enhanced' &&
    input.customerActivityCodes.includes('adult-first') &&
    !input.caseActivityCodes.includes('adult-first') &&
    hasPermission(input.permissions, 'cases.add_case') &&
    input.config?.adult_barred_list === true &&
    workforceIncludesAdult(input.config.workforce)
  );
}
