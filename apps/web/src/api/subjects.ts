import {
  type DuplicatePairOut,
  type SubjectCreate,
  type SubjectCreateInput,
  type SubjectOut,
  subjectCreate,
} from '@kestrel/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { notify } from '../lib/notify';
import { list, request } from './client';
import { actionSuccessMessage, failureMessage } from './messages';
import { defineResource } from './resource';

/** A subject as the API returns it (contract: subjectOut). */
export type Subject = SubjectOut;

/** A likely duplicate pair (contract: duplicatePairOut). */
export type DuplicatePair = DuplicatePairOut;

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

/** The subject profile fields of spec point 3: the server's own schema (contract: subjectCreate). */
export const subjectSchema = subjectCreate;
export type SubjectInput = SubjectCreateInput;
export type SubjectValues = SubjectCreate;

export const fullName = (s: { first_name: string; middlename?: string; last_name: string }) =>
  [s.first_name, s.middlename, s.last_name].filter(Boolean).join(' ');

/**
 * POST an action on a subject (archive, merge, resend-invitation); toasts the outcome
 * ('Successfully updated subject' unless the action names its own text, or 'Error updating
 * subject' with the server's lines), refreshes subject data.
 */
export function useSubjectAction<T>(
  action: string,
  texts: { success?: string; statusMessages?: Readonly<Record<number, string>> } = {},
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: number | string; body?: unknown }) => {
      const r = await request<T>('POST', `/api/subjects/${id}/${action}/`, { body: body ?? {} });
      if (!r.ok) {
        const message = failureMessage(r, {
          action: 'update',
          name: subjects.names.item,
          showBackendErrors: true,
          ...(texts.statusMessages ? { statusMessages: texts.statusMessages } : {}),
        });
        if (message) notify.error(message);
        return null;
      }
      notify.success(texts.success ?? actionSuccessMessage('update', subjects.names.item));
      await client.invalidateQueries({ queryKey: subjects.key });
      return r.data;
    },
  });
}

/**
 * Sends a person invited without an account yet a fresh claim link (POST
 * /api/subjects/{id}/resend-invitation/), from the subject's page or a case.
 */
export const useResendInvitation = () =>
  useSubjectAction<{ detail: string }>('resend-invitation', {
    success: 'Invitation sent',
    statusMessages: { 429: 'This person was sent several invitations just now: try again later.' },
  });
