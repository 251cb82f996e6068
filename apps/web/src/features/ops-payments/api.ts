import type {
  OpsPaymentDetailOut,
  OpsPaymentRecordOut,
  PaymentRefundOut,
  PaymentSource,
} from '@kestrel/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../api/client';
import { defineResource } from '../../api/resource';
import { notify } from '../../lib/notify';

/** GET /api/ops/portal-payments/ (subjects' top-ups) and /api/ops/product-payments/. */
export const opsPayments = {
  portal: defineResource<OpsPaymentRecordOut, OpsPaymentDetailOut>('/api/ops/portal-payments/', {
    item: 'portal payment',
    plural: 'portal payments',
  }),
  product: defineResource<OpsPaymentRecordOut, OpsPaymentDetailOut>('/api/ops/product-payments/', {
    item: 'product payment',
    plural: 'product payments',
  }),
} as const;

/** The API's message for one field of a refused request (or its detail). */
export function errorText(data: Readonly<Record<string, unknown>>, field: string): string | null {
  const v = data[field];
  if (Array.isArray(v)) return v.filter((x) => typeof x === 'string').join(' ');
  if (typeof v === 'string') return v;
  const errors = data.errors;
  if (errors && typeof errors === 'object' && field in errors) {
    return errorText(errors as Record<string, unknown>, field);
  }
  return typeof data.detail === 'string' ? data.detail : null;
}

/**
 * A refund's status in words: pending while the provider has not answered (its answer lost: the
 * server asks again with the same key, and the amount still counts as refunded), refunded, or
 * failed with the provider's reason.
 */
export function refundStatusText(r: Pick<PaymentRefundOut, 'status' | 'failure_message'>): string {
  if (r.status === 'pending') {
    return 'Pending: the payments provider has not answered yet, it is asked again';
  }
  if (r.status === 'succeeded') return 'Refunded';
  return r.failure_message ? `Failed (${r.failure_message})` : 'Failed';
}

export class RefundRefused extends Error {}

/**
 * POST {id}/refund/ with a request id made once per dialog (a retried click refunds once); the
 * refreshed detail on success. A refusal's message is thrown (shown beside the amount).
 */
export function useRefund(source: PaymentSource, id: number) {
  const client = useQueryClient();
  const resource = opsPayments[source];
  return useMutation({
    mutationFn: async (v: { amountPence: number | undefined; requestId: string }) => {
      const r = await request<OpsPaymentDetailOut>('POST', `${resource.path}${id}/refund/`, {
        body: {
          request_id: v.requestId,
          ...(v.amountPence !== undefined ? { amount_pence: v.amountPence } : {}),
        },
      });
      if (!r.ok) {
        throw new RefundRefused(errorText(r.data, 'amount_pence') ?? 'The refund failed.');
      }
      return r.data;
    },
    onSuccess: (detail) => {
      client.setQueryData(resource.keys.item(id), detail);
      void client.invalidateQueries({ queryKey: resource.key });
      notify.success(`Refunded ${detail.refunds.at(-1)?.amount_display ?? ''}`.trim());
    },
  });
}
