import { z } from 'zod';
import { auditDateFilters, resourceListFilters } from './list-queries.js';
import {
  OPS_PAYMENT_STATES,
  PAYMENT_SOURCES,
  type PaymentSource,
  paymentEventOut,
} from './ops-payments.js';

/*
 * A customer's payments (issue 30, GET /api/payments/): its product payments (what it paid for its
 * checks, per case) and the portal payments its subjects made (payment intents), in one list,
 * newest first, amounts in pence with their display in pounds.
 */

/** The id of one payment in the customer's list: its kind and the row's id (`product-12`). */
export function customerPaymentId(kind: PaymentSource, id: number): string {
  return `${kind}-${id}`;
}

/** `product-12` → `{kind: 'product', id: 12}`; null for anything else (a 404). */
export function parseCustomerPaymentId(raw: string): { kind: PaymentSource; id: number } | null {
  const m = /^(portal|product)-([1-9][0-9]{0,9})$/.exec(raw);
  if (!m) return null;
  const id = Number(m[2]);
  if (id > 2_147_483_647) return null;
  return { kind: m[1] === 'portal' ? 'portal' : 'product', id };
}

/** What the kinds are called on the screens. */
export const CUSTOMER_PAYMENT_KIND_LABELS: Record<PaymentSource, string> = {
  product: 'Check payment',
  portal: 'Subject payment',
};

/** What a payment came to, as the customer's screens say it. */
export const CUSTOMER_PAYMENT_STATE_LABELS: Record<(typeof OPS_PAYMENT_STATES)[number], string> = {
  awaiting: 'Awaiting payment',
  paid: 'Paid',
  declined: 'Declined',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
};

/** A row of GET /api/payments/. */
export const customerPaymentOut = z.strictObject({
  /** `product-{id}` or `portal-{id}` (customerPaymentId). */
  id: z.string(),
  kind: z.enum(PAYMENT_SOURCES),
  /** PP-{id} for a product payment, the payment link's id for a portal payment. */
  reference: z.string(),
  description: z.string(),
  /** The check paid for (a portal payment's activity), when known. */
  check_name: z.string().nullable(),
  case: z.number().nullable(),
  case_activity: z.number().nullable(),
  /** The subject of the case paid for. */
  subject_name: z.string().nullable(),
  amount_pence: z.number().int(),
  amount_display: z.string(),
  refunded_pence: z.number().int(),
  refunded_display: z.string(),
  state: z.enum(OPS_PAYMENT_STATES),
  created_at: z.string(),
});
export type CustomerPaymentOut = z.infer<typeof customerPaymentOut>;

/** A refund as the customer sees it (who at operations made it is not shown). */
export const customerRefundOut = z.strictObject({
  id: z.number(),
  amount_pence: z.number().int(),
  amount_display: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  created_at: z.string(),
});
export type CustomerRefundOut = z.infer<typeof customerRefundOut>;

/** GET /api/payments/{id}/: the row, who took it, the provider's events and the refunds. */
export const customerPaymentDetailOut = customerPaymentOut.extend({
  provider: z.string(),
  provider_payment_id: z.string().nullable(),
  events: z.array(paymentEventOut),
  refunds: z.array(customerRefundOut),
});
export type CustomerPaymentDetailOut = z.infer<typeof customerPaymentDetailOut>;

/**
 * The list's filters: kind (product, portal), status (a payment state), the date range, and
 * `search` (a case reference such as 12 or #12, the subject's name, the payment's reference).
 */
export const customerPaymentFilters = {
  ...resourceListFilters(['kind', 'status', 'case', 'case_activity']),
  ...auditDateFilters,
};
