import { z } from 'zod';
import { dbsAlternative } from './case-details.js';
import { dateSelectorDefaults, refineDateRange } from './date-selector.js';
import { isoDateSchema } from './dates.js';
import { refineDbsAlternative } from './dbs-checks.js';
import { MESSAGES } from './messages.js';
import { forenameSchema, middlenameSchema, surnameSchema } from './text-rules.js';

/** Adds 'To date cannot be before from date.' on `to_date` when it is earlier than `from_date`. */
export function refineDateOrder(
  ctx: z.RefinementCtx,
  data: { from_date?: string | null; to_date?: string | null },
): void {
  if (data.from_date && data.to_date && data.to_date < data.from_date) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.toBeforeFrom, path: ['to_date'] });
  }
}

/** The fields of another name the subject has used. */
export const otherNameFields = z.object({
  forename: forenameSchema,
  forename_dbs: dbsAlternative(),
  middlename: middlenameSchema,
  middlename_dbs: dbsAlternative(),
  surname: surnameSchema,
  surname_dbs: dbsAlternative(50),
  from_date: isoDateSchema,
  to_date: isoDateSchema,
});

/** Names needing their '(for DBS)' value, the date order; given `today`, the selector's range. */
export function refineOtherName(
  data: z.output<typeof otherNameFields>,
  ctx: z.RefinementCtx,
  today?: Date | string,
): void {
  for (const field of ['forename', 'middlename', 'surname']) {
    refineDbsAlternative(ctx, data, field, 'name');
  }
  refineDateOrder(ctx, data);
  if (today !== undefined) {
    refineDateRange(ctx, data, ['from_date', 'to_date'], dateSelectorDefaults(today));
  }
}

/** A previous name of the subject, with the period it was used. */
export const otherNameSchema = otherNameFields.superRefine((d, ctx) => refineOtherName(d, ctx));
export type OtherName = z.infer<typeof otherNameSchema>;
