import type { ActiveFlagsOut, FlagOut } from '@kestrel/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notify } from '../lib/notify';
import { getSession, setSession } from '../lib/session/session-store';
import { request } from './client';
import { actionSuccessMessage, failureMessage } from './messages';
import { defineResource } from './resource';

/** A flag as /api/flags/ returns it (contract: flagOut). */
export type Flag = FlagOut;

export const flags = defineResource<Flag>('/api/flags/', { item: 'flag', plural: 'flags' });

/** Re-reads the active flag count for the navigation badge. */
export async function refreshActiveFlags(): Promise<void> {
  const r = await request<ActiveFlagsOut>('GET', '/api/flags/active-count/', { expect: 200 });
  if (!r.ok) return;
  const { bootstrap } = getSession();
  setSession({
    activeFlags: r.data.active,
    bootstrap: bootstrap ? { ...bootstrap, activeFlags: r.data.active } : bootstrap,
  });
}

/** POST /api/flags/{id}/resolve/ with a comment. */
export function useResolveFlag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, comment }: { id: number; comment: string }) => {
      const r = await request<Flag>('POST', `/api/flags/${id}/resolve/`, { body: { comment } });
      if (!r.ok) {
        const message = failureMessage(r, {
          action: 'update',
          name: flags.names.item,
          showBackendErrors: true,
        });
        if (message) notify.error(message);
        return null;
      }
      notify.success(actionSuccessMessage('update', flags.names.item));
      await client.invalidateQueries({ queryKey: flags.key });
      await refreshActiveFlags();
      return r.data;
    },
  });
}
