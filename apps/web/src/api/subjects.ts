import {
  emailSchema,
  forenameSchema,
  middlenameSchema,
  optionalIsoDateSchema,
  optionalText,
  phoneSchema,
  surnameSchema,
} from '@kestrel/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { notify } from '../lib/notify';
import { list, request } from './client';
import { failureMessage, MESSAGES_UI } from './messages';
import { defineResource } from './resource';

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

/** Likely duplicates of every subject, or of one (entitlement subject_dedup). */
export const duplicatesOptions = (subject: string | null) => {
  const path = subject ? `/api/subjects/${subject}/duplicates/` : '/api/subjects/duplicates/';
  return queryOptions({
    queryKey: subjects.keys.other('duplicates', path),
    queryFn: async () => (await list<DuplicatePair>(path, { page_size: 100 })).data,
  });
};

/** One of a subject's read-only sub-lists (subscriptions, registrations, consents). */
export const subjectPartOptions = (id: number, part: string) =>
  queryOptions({
    queryKey: subjects.keys.other('part', id, part),
    queryFn: async () => (await list<{ id: number }>(`/api/subjects/${id}/${part}/`)).data,
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

/** POST an action on a subject (archive, merge); toasts the outcome, refreshes subject data. */
export function useSubjectAction<T>(action: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: number | string; body?: unknown }) => {
      const r = await request<T>('POST', `/api/subjects/${id}/${action}/`, { body: body ?? {} });
      if (!r.ok) {
        const message = failureMessage(r, { showBackendErrors: true });
        if (message) notify.error(message);
        return null;
      }
      notify.success(MESSAGES_UI.defaultSuccess);
      await client.invalidateQueries({ queryKey: subjects.key });
      return r.data;
    },
  });
}
