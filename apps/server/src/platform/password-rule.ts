import { z } from 'zod';

/**
 * The password rule: the spec's strength rule set with a minimum of 12 characters; mixed case
 * and special characters are off (ASVS forbids composition rules). Maximum 200 to bound hashing.
 * TODO(domain): switch to `passwordStrengthSchema` once @kestrel/domain exports it.
 */
export const passwordSchema = z
  .string({ error: 'Required' })
  .max(200, 'Max 200 characters')
  .superRefine((value, ctx) => {
    if (value.length === 0) ctx.addIssue({ code: 'custom', message: 'Required' });
    else if (value.length < 12)
      ctx.addIssue({ code: 'custom', message: 'Must be at least 12 characters' });
  });
