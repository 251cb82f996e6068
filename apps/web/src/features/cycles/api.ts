import type { CycleOut, SubscriptionOut } from '@kestrel/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiErrorBody, remove, request } from '../../api/client';
import { backendErrorLines } from '../../api/messages';
import { ApiFailure, defineResource } from '../../api/resource';
import { notify } from '../../lib/notify';

/** A cycle as /api/processes/{id}/cycles/ answers it (contract: cycleOut). */
export type Cycle = CycleOut;
/** A subscription as /api/subscriptions/ answers it (contract: subscriptionOut). */
export type Subscription = SubscriptionOut;

const cycleNames = { item: 'cycle', plural: 'cycles' };
const subscriptionNames = { item: 'subscription', plural: 'subscriptions' };

/** /api/processes/{id}/cycles/: one process's cycles (list, retrieve, create, update). */
export const processCycles = (processId: number | string) =>
  defineResource<Cycle>(`/api/processes/${processId}/cycles/`, cycleNames);

/** /api/cycles/: every process's cycles (`is_active=true`: the subscribe pickers). */
export const allCycles = defineResource<Cycle>('/api/cycles/', cycleNames);

/** /api/subscriptions/: every subscription, the next due first. */
export const subscriptions = defineResource<Subscription>('/api/subscriptions/', subscriptionNames);

/** /api/subjects/{id}/subscriptions/: one subject's subscriptions (list, create). */
export const subjectSubscriptions = (subjectId: number | string) =>
  defineResource<Subscription>(`/api/subjects/${subjectId}/subscriptions/`, subscriptionNames);

/** What a 400 says in lines (non_field_errors, detail, fields), for a dialog to show. */
export function errorLines(body: ApiErrorBody): string[] {
  return backendErrorLines(body);
}

/**
 * Deletes a cycle; a refusal (400: it has open subscriptions) is thrown as an ApiFailure whose
 * body the dialog shows, not toasted.
 */
export function useDeleteCycle(processId: number | string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      const r = await remove(`/api/processes/${processId}/cycles/`, id);
      if (!r.ok) throw new ApiFailure(r.status, r.data, null);
      notify.success('Successfully deleted cycle');
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: [`/api/processes/${processId}/cycles/`] });
      void client.invalidateQueries({ queryKey: ['/api/cycles/'] });
    },
  });
}

export type SubscriptionAction = 'pause' | 'resume' | 'end';

/** POST /api/subscriptions/{id}/{action}/: refreshes every subscription list. */
export function useSubscriptionAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: number; action: SubscriptionAction }) => {
      const r = await request<Subscription>('POST', `/api/subscriptions/${id}/${action}/`);
      if (!r.ok) throw new ApiFailure(r.status, r.data, null);
      return r.data;
    },
    onSuccess: () =>
      client.invalidateQueries({
        predicate: (q) => String(q.queryKey[0]).includes('subscriptions/'),
      }),
  });
}
