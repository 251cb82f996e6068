import { z } from 'zod';
import { auditDateFilters } from './list-queries.js';

/** Where a payment came from: a subject in the payment portal, or a customer for its checks. */
export const PAYMENT_SOURCES = ['portal', 'product'] as const;
export type PaymentSource = (typeof PAYMENT_SOURCES)[number];

/** What a payment came to, refunds counted. */
export const OPS_PAYMENT_STATES = [
  'awaiting',
  'paid',
  'declined',
  'partially_refunded',
  'refunded',
] as const;
export type OpsPaymentState = (typeof OPS_PAYMENT_STATES)[number];

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;

/** One refund of a portal or product payment (through the payments provider). */
export const paymentRefundOut = z.strictObject({
  id: z.number(),
  amount_pence: z.number(),
  amount_display: z.string(),
  status: z.enum(REFUND_STATUSES),
  provider_refund_id: z.string().nullable(),
  failure_message: z.string().nullable(),
  created_by_name: z.string(),
  created_at: z.string(),
});
export type PaymentRefundOut = z.infer<typeof paymentRefundOut>;

/**
 * A row of /api/ops/portal-payments/ and /api/ops/product-payments/ (one shape, two sources):
 * amounts in pence with their display (pounds, two decimals), what was paid and refunded.
 */
export const opsPaymentRecordOut = z.strictObject({
  id: z.number(),
  source: z.enum(PAYMENT_SOURCES),
  customer: z.number(),
  customer_name: z.string(),
  case: z.number().nullable(),
  case_activity: z.number().nullable(),
  reference: z.string(),
  description: z.string(),
  amount_pence: z.number(),
  amount_display: z.string(),
  paid_pence: z.number(),
  refunded_pence: z.number(),
  refunded_display: z.string(),
  refundable_pence: z.number(),
  state: z.enum(OPS_PAYMENT_STATES),
  provider: z.string(),
  provider_payment_id: z.string().nullable(),
  created_at: z.string(),
});
export type OpsPaymentRecordOut = z.infer<typeof opsPaymentRecordOut>;

/** One thing the provider told Kestrel about a payment (a webhook event) or did (a refund). */
export const paymentEventOut = z.strictObject({
  id: z.string(),
  type: z.string(),
  amount_pence: z.number(),
  amount_display: z.string(),
  status: z.string(),
  message: z.string().nullable(),
  at: z.string(),
});
export type PaymentEventOut = z.infer<typeof paymentEventOut>;

/** GET /api/ops/{portal,product}-payments/{id}/: the row, its provider's events and refunds. */
export const opsPaymentDetailOut = opsPaymentRecordOut.extend({
  check_name: z.string().nullable(),
  events: z.array(paymentEventOut),
  refunds: z.array(paymentRefundOut),
});
export type OpsPaymentDetailOut = z.infer<typeof opsPaymentDetailOut>;

/**
 * POST /api/ops/{portal,product}-payments/{id}/refund/: the whole refundable amount unless
 * `amount_pence` says less. The `Idempotency-Key` header (or `request_id`) makes it once.
 */
export const paymentRefundCreate = z.strictObject({
  amount_pence: z.number().int().positive().max(100_000_000).optional(),
  request_id: z.string().min(1).max(100).optional(),
});
export type PaymentRefundCreate = z.infer<typeof paymentRefundCreate>;

/**
 * A refund whose answer never came (the provider asked again with the same key, without an
 * answer) stays pending; past this many hours operations are alerted (the ops dashboard, the
 * payments lists' `refund=unanswered`) to settle it with the provider by hand.
 */
export const REFUND_UNANSWERED_HOURS = 1;

/** The list's further query parameters (besides status, customer, search). */
export const opsPaymentDateFilters = {
  ...auditDateFilters,
  refund: z
    .enum(['unanswered'])
    .optional()
    .describe(
      `unanswered: only payments with a refund the provider has not answered for over ${REFUND_UNANSWERED_HOURS} hour`,
    ),
};
