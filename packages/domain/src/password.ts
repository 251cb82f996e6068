import { z } from 'zod';
import { MESSAGES, minCharacters } from './messages.js';

export interface PasswordStrengthOptions {
  minLength?: number;
  mixedCase?: boolean;
  special?: boolean;
}

/** Password strength with the spec's three messages; each rule is reported once. */
export function passwordStrengthSchema({
  minLength = 12,
  mixedCase = false,
  special = false,
}: PasswordStrengthOptions = {}) {
  return z.string({ error: MESSAGES.required }).superRefine((value, ctx) => {
    if (value.length === 0) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.required });
      return;
    }
    if (value.length < minLength)
      ctx.addIssue({ code: 'custom', message: minCharacters(minLength) });
    if (mixedCase && !(/\p{Lu}/u.test(value) && /\p{Ll}/u.test(value))) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.mixedCase });
    }
    if (special && !/[^\p{L}\p{N}\s]/u.test(value)) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.specialCharacters });
    }
  });
}
