import { z } from 'zod';
import { dbsAlternative } from './case-details.js';
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

/** A previous name of the subject, with the period it was used. */
export const otherNameSchema = z
  .object({
    forename: forenameSchema,
    forename_dbs: dbsAlternative(),
    middlename: middlenameSchema,
    middlename_dbs: dbsAlternative(),
    surname: surnameSchema,
    surname_dbs: dbsAlternative(50),
    from_date: isoDateSchema,
    to_date: isoDateSchema,
  })
  .superRefine((data, ctx) => {
    for (const field of ['forename', 'middlename', 'surname']) {
      refineDbsAlternative(ctx, data, field, 'name');
    }
    refineDateOrder(ctx, data);
  });
export type OtherName = z.infer<typeof otherNameSchema>;
