import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../api/client';
import { failureMessage, MESSAGES_UI } from '../../../api/messages';
import { notify } from '../../../lib/notify';
import { subjects } from './subjects';

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
