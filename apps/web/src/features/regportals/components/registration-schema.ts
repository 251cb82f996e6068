import {
  emailSchema,
  forenameSchema,
  isoDateSchema,
  optionalIsoDateSchema,
  optionalText,
  phoneSchema,
  type RegPortalFieldMode,
  type RegPortalPublicOut,
  surnameSchema,
} from '@kestrel/domain';
import { z } from 'zod';

/** What the registration form holds ('' while a field is empty). */
export const emptyRegistration = {
  first_name: '',
  last_name: '',
  email: '',
  dob: '',
  phone: '',
};

/** A field asked as `mode`: required, optional (blank is left out) or not asked (left out). */
function asked<R extends z.ZodType, O extends z.ZodType>(
  mode: RegPortalFieldMode,
  required: R,
  optional: O,
) {
  if (mode === 'required') return required;
  if (mode === 'optional') return optional;
  return z
    .string()
    .optional()
    .transform(() => undefined);
}

/**
 * The registration's rules in the browser, for a portal's ask modes of date of birth and phone (the spec's text rules:
 * names, email, date of birth, phone); the server checks the same with the same schemas.
 */
export function registrationSchema(p: Pick<RegPortalPublicOut, 'ask_dob' | 'ask_phone'>) {
  return z.object({
    first_name: forenameSchema,
    last_name: surnameSchema,
    // Always asked: the link that confirms the registration is emailed (the server requires it).
    email: emailSchema,
    dob: asked(p.ask_dob, isoDateSchema, optionalIsoDateSchema),
    phone: asked(p.ask_phone, phoneSchema, optionalText(phoneSchema)),
  });
}
export type RegistrationValues = z.input<ReturnType<typeof registrationSchema>>;
export type RegistrationOutput = z.output<ReturnType<typeof registrationSchema>>;
