import {
  emailSchema,
  forenameSchema,
  middlenameSchema,
  optionalIsoDateSchema,
  optionalText,
  phoneSchema,
  surnameSchema,
} from '@kestrel/domain';
import { z } from 'zod';

/** A subject's profile fields (spec point 3), with the domain's text rules. */
export const subjectInput = z.object({
  first_name: forenameSchema,
  middlename: middlenameSchema,
  last_name: surnameSchema,
  email: emailSchema,
  dob: optionalIsoDateSchema,
  phone_number: optionalText(phoneSchema),
});
export type SubjectInput = z.output<typeof subjectInput>;
