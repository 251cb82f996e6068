import { MESSAGES, passwordStrengthSchema } from '@kestrel/domain';
import { z } from 'zod';
import { isCommonPassword } from './common-passwords.js';

/**
 * The password rule: the spec's strength rule set with a minimum of 12 characters; mixed case
 * and special characters stay off (ASVS forbids composition rules). At most 200 characters,
 * which bounds the hashing work. A password on the shipped list of common and breached
 * passwords is refused (ASVS 5.0), any case: checked here only, not in the web form, which would
 * otherwise download the list; the message comes back on the form's password field.
 */
const MIN_LENGTH = 12;

export const passwordSchema = z
  .string({ error: 'Required' })
  .max(200, 'Max 200 characters')
  .pipe(passwordStrengthSchema({ minLength: MIN_LENGTH, mixedCase: false, special: false }))
  .refine(
    // a short password already has its message: one reason at a time
    (value) => value.length < MIN_LENGTH || !isCommonPassword(value),
    { message: MESSAGES.commonPassword },
  );
