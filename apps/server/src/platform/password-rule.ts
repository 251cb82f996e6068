import { passwordStrengthSchema } from '@kestrel/domain';
import { z } from 'zod';

/**
 * The password rule: the spec's strength rule set with a minimum of 12 characters; mixed case
 * and special characters stay off (ASVS forbids composition rules). At most 200 characters,
 * which bounds the hashing work.
 */
export const passwordSchema = z
  .string({ error: 'Required' })
  .max(200, 'Max 200 characters')
  .pipe(passwordStrengthSchema({ minLength: 12, mixedCase: false, special: false }));
