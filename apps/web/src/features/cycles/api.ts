import type { CycleOut, SubscriptionBillingOut, SubscriptionOut } from '@kestrel/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

/**
 * A subscription's last billing period as GET /api/subscriptions/billing/ answers it (the
 * domain's subscriptionBillingOut).
 */
export type SubscriptionBilling = SubscriptionBillingOut;

const BILLING_PATH = '/api/subscriptions/billing/';

/**
 * The rows of one table ask for their billing in the same tick: one request for all of them
 * (a page's subscriptions), each row answered from it (null when not billed yet).
 */
let waiting: {
  id: number;
  done: (b: SubscriptionBilling | null) => void;
  fail: (e: unknown) => void;
}[] = [];

function flushBilling() {
  const batch = waiting;
  waiting = [];
  const ids = [...new Set(batch.map((w) => w.id))];
  void request<{ results: SubscriptionBilling[] }>('GET', BILLING_PATH, {
    params: { subscription: ids.join(',') },
  }).then(
    (r) => {
      if (!r.ok) {
        for (const w of batch) w.fail(new ApiFailure(r.status, r.data, null));
        return;
      }
      const byId = new Map(r.data.results.map((b) => [b.subscription, b]));
      for (const w of batch) w.done(byId.get(w.id) ?? null);
    },
    (e: unknown) => {
      for (const w of batch) w.fail(e);
    },
  );
}

function billingOf(id: number): Promise<SubscriptionBilling | null> {
  return new Promise((done, fail) => {
    if (waiting.length === 0) queueMicrotask(flushBilling);
    waiting.push({ id, done, fail });
  });
}

/** The query key of a subscription's billing (under every subscriptions/ invalidation). */
export const billingKey = (id: number) => [BILLING_PATH, id] as const;

/** A subscription's last billing period (batched with the other rows shown). */
export function useSubscriptionBilling(id: number) {
  return useQuery({
    queryKey: billingKey(id),
    queryFn: () => billingOf(id),
    // a charge on its way (a retry, the period's own) is read again until the provider answered
    refetchInterval: (q) => (q.state.data?.state === 'pending' ? 1_500 : false),
  });
}

/** POST /api/subscription-charges/{id}/retry-payment/: charge a failed period again. */
export function useRetrySubscriptionPayment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (b: SubscriptionBilling) => {
      const r = await request<SubscriptionBilling>(
        'POST',
        `/api/subscription-charges/${b.charge}/retry-payment/`,
        { body: {} },
      );
      if (!r.ok) throw new ApiFailure(r.status, r.data, null);
      return r.data;
    },
    onSuccess: (b) => {
      client.setQueryData(billingKey(b.subscription), b);
      void client.invalidateQueries({ queryKey: billingKey(b.subscription) });
    },
  });
}
