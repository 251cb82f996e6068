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
import { defineResource } from '../../../api/resource';

export interface Subject {
  id: number;
  first_name: string;
  middlename: string;
  last_name: string;
  email: string;
  dob: string | null;
  phone_number: string;
  has_account: boolean;
  is_archived: boolean;
  archived_at: string | null;
  created_at: string;
  open_cases: number;
}

export interface DuplicatePair {
  id: string;
  subject: Subject;
  duplicate: Subject;
  reasons: ('name_dob' | 'email')[];
}

export const subjects = defineResource<Subject>('/api/subjects/', {
  item: 'subject',
  plural: 'subjects',
});

/** The subject profile fields of spec point 3, with the domain's rules. */
export const subjectSchema = z.object({
  first_name: forenameSchema,
  middlename: middlenameSchema,
  last_name: surnameSchema,
  email: emailSchema,
  dob: optionalIsoDateSchema,
  phone_number: optionalText(phoneSchema),
});
export type SubjectInput = z.input<typeof subjectSchema>;
export type SubjectValues = z.output<typeof subjectSchema>;

export const fullName = (s: { first_name: string; middlename?: string; last_name: string }) =>
  [s.first_name, s.middlename, s.last_name].filter(Boolean).join(' ');
