import { z } from 'zod';
import type { BrandDetails } from '../brands.js';
import { INT4_MAX, timestampOut } from './common.js';

/*
 * Payments (issue 17): a payment intent per awaited top-up (Stripe's PaymentIntents shape, money
 * in pence), paid by the subject or customer in the public payment portal (/payment-portal/{id}),
 * settled by the provider's signed webhook. Each payment attempt the webhook reports is a payment.
 */

/** Stripe's PaymentIntent statuses (PROVIDERS.md). */
export const PAYMENT_INTENT_STATUSES = [
  'requires_payment_method',
  'requires_action',
  'processing',
  'succeeded',
  'canceled',
] as const;
export type PaymentIntentStatus = (typeof PAYMENT_INTENT_STATUSES)[number];

/** What the top-up came to: still awaited, paid, or declined (the customer decides then). */
export const PAYMENT_OUTCOMES = ['awaiting', 'paid', 'declined'] as const;
export type PaymentOutcome = (typeof PAYMENT_OUTCOMES)[number];

export const PAYMENT_STATUSES = ['succeeded', 'failed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_PROVIDERS = ['simulator', 'stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** POST /api/payment-intents/: the intent of an activity's awaited top-up (made once). */
export const paymentIntentCreate = z.object({
  case_activity: z
    .number({ error: 'Required' })
    .int()
    .positive()
    .max(INT4_MAX, 'Invalid pk - object does not exist.'),
});

/** The page that pays an intent: /payment-portal/{public id}. */
export function paymentPortalPath(publicId: string): string {
  return `/payment-portal/${encodeURIComponent(publicId)}`;
}

/** A public payment intent id: `pit_` and 24 URL-safe characters. */
export const paymentIntentPublicId = z.string().regex(/^pit_[A-Za-z0-9_-]{24}$/);

/**
 * Each brand's publishable payment key (spec points 1 and 9: hard-coded per host). The browser
 * confirms a payment with it; these are the test-mode keys (the simulator accepts `pk_test_`).
 */
export const BRAND_PAYMENT_KEYS: Record<BrandDetails['id'], string> = {
  kestrel: 'pk_test_kestrel_51KestrelChecksTestKey',
  harrier: 'pk_test_harrier_51HarrierVettingTestKey',
};

/** A payment intent as GET /api/payment-intents/ returns it (amounts in pence). */
export const paymentIntentOut = z.strictObject({
  id: z.number(),
  /** The payment portal's id (/payment-portal/{public_id}). */
  public_id: z.string(),
  /** The case and activity of a top-up; null for an intent of another purpose (no case yet). */
  case: z.number().nullable(),
  case_activity: z.number().nullable(),
  amount_pence: z.number().int(),
  /** The amount as shown: pounds with two decimals ('£3.50'). */
  amount_display: z.string(),
  currency: z.literal('gbp'),
  description: z.string(),
  status: z.enum(PAYMENT_INTENT_STATUSES),
  outcome: z.enum(PAYMENT_OUTCOMES),
  provider: z.enum(PAYMENT_PROVIDERS),
  provider_intent_id: z.string().nullable(),
  /** The payment portal's path (relative to the site). */
  url: z.string(),
  created_at: timestampOut,
  updated_at: timestampOut,
});
export type PaymentIntentOut = z.infer<typeof paymentIntentOut>;

/** A payment (one attempt the provider reported) as GET /api/payments/ returns it. */
export const paymentOut = z.strictObject({
  id: z.number(),
  payment_intent: z.number(),
  case_activity: z.number().nullable(),
  amount_pence: z.number().int(),
  amount_display: z.string(),
  currency: z.literal('gbp'),
  status: z.enum(PAYMENT_STATUSES),
  failure_code: z.string().nullable(),
  failure_message: z.string().nullable(),
  provider_event_id: z.string(),
  created_at: timestampOut,
});
export type PaymentOut = z.infer<typeof paymentOut>;

/** The same on /api/ops/payment-intents/ and /api/ops/payments/, with their customer. */
export const opsPaymentIntentOut = paymentIntentOut.extend({ customer: z.number() });
export const opsPaymentOut = paymentOut.extend({ customer: z.number() });

/** GET /api/public/payment-portal/{id}/: what the public payment page shows and needs. */
export const paymentPortalOut = z.strictObject({
  id: z.string(),
  /** What is being paid for, e.g. 'Paper certificate by post: Basic DBS check'. */
  description: z.string(),
  reason: z.string(),
  /** The check a top-up pays for; null when the intent is for something else. */
  check_name: z.string().nullable(),
  amount_pence: z.number().int(),
  amount_display: z.string(),
  currency: z.literal('gbp'),
  status: z.enum(PAYMENT_INTENT_STATUSES),
  outcome: z.enum(PAYMENT_OUTCOMES),
  /** The brand's name and publishable key (by the host the page was served on). */
  brand_name: z.string(),
  publishable_key: z.string(),
  provider: z.enum(PAYMENT_PROVIDERS),
  /** Where the browser confirms the payment (Stripe's API, or the simulator's). */
  api_base: z.string(),
  /**
   * The provider's intent id and client secret: null once settled, and while an awaited intent's
   * provider intent is still being made (a job; the page asks again). The browser asks the
   * provider with them how the intent stands (a 3-D Secure challenge left unfinished).
   */
  provider_intent_id: z.string().nullable(),
  client_secret: z.string().nullable(),
  last_error: z.string().nullable(),
});
export type PaymentPortalOut = z.infer<typeof paymentPortalOut>;

/**
 * The provider's answer to a confirmation or a retrieval in the browser (Stripe's PaymentIntent,
 * the fields the page reads): `requires_action` carries the 3-D Secure page to visit.
 */
export const confirmAnswer = z.object({
  id: z.string(),
  status: z.enum(PAYMENT_INTENT_STATUSES),
  next_action: z
    .object({
      type: z.literal('redirect_to_url'),
      redirect_to_url: z.object({ url: z.string(), return_url: z.string() }),
    })
    .nullable()
    .optional(),
  last_payment_error: z.object({ code: z.string(), message: z.string() }).nullable().optional(),
});
export type ConfirmAnswer = z.infer<typeof confirmAnswer>;

/** The texts of the payment portal. */
export const PAYMENT_TEXTS = {
  title: 'Pay for your check',
  paid: 'Payment received',
  paidBody: 'Thank you. Your payment has been received and your check will now continue.',
  declined: 'Payment declined',
  declinedBody:
    'Your payment was not taken. The organisation that asked for this check will decide what happens next.',
  notFound: 'This payment link is not valid.',
  preparing: 'Preparing your payment…',
  unavailable: 'The payment service is not available. Try again later.',
  challengePending: 'Your bank needs to confirm this payment.',
  challengeContinue: "Continue to your bank's check",
  cardNumberRequired: 'Enter your card number',
  cardNumberInvalid: 'Enter a valid card number',
  expiryRequired: 'Enter the expiry date',
  expiryInvalid: 'Enter a valid expiry date, like 04/29',
  cvcRequired: 'Enter the security code',
  cvcInvalid: 'Enter a valid security code',
  nameRequired: 'Enter the name on the card',
  error: 'An error has occurred',
} as const;
