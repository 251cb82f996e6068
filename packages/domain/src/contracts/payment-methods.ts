import { z } from 'zod';
import { MESSAGES, maxCharacters } from '../messages.js';
import { EMAIL_PATTERN } from '../text-rules.js';
import { timestampOut } from './common.js';
import { PAYMENT_PROVIDERS } from './payments.js';

/*
 * A customer's saved cards and payment settings (issue 30), through the payments provider's
 * setup flow (Stripe's SetupIntent shape): the server makes a setup intent, the browser confirms
 * it with the brand's publishable key and a card (perhaps a 3-D Secure challenge), then the
 * server records the card the setup intent saved. Each case of a customer not invoiced is then
 * charged to its default card, off-session (its price from the pricebook in force).
 */

/** Stripe's SetupIntent statuses (the ones a card setup goes through). */
export const SETUP_INTENT_STATUSES = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'canceled',
  'succeeded',
] as const;
export type SetupIntentStatus = (typeof SETUP_INTENT_STATUSES)[number];

/** Card brands as Stripe names them (payment_method.card.brand). */
export const CARD_BRANDS = [
  'amex',
  'diners',
  'discover',
  'jcb',
  'mastercard',
  'unionpay',
  'visa',
  'unknown',
] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

export const CARD_BRAND_LABELS: Record<CardBrand, string> = {
  amex: 'American Express',
  diners: 'Diners Club',
  discover: 'Discover',
  jcb: 'JCB',
  mastercard: 'Mastercard',
  unionpay: 'UnionPay',
  visa: 'Visa',
  unknown: 'Card',
};

/** A provider's brand name as one of ours ('unknown' for anything else). */
export function cardBrandOf(raw: string): CardBrand {
  return CARD_BRANDS.find((b) => b === raw) ?? 'unknown';
}

/** A card's expiry as shown: MM/YY. */
export function cardExpiryDisplay(month: number, year: number): string {
  return `${String(month).padStart(2, '0')}/${String(year % 100).padStart(2, '0')}`;
}

/** True when a card expiring at the end of month/year has expired by `today` (YYYY-MM-DD). */
export function cardExpired(month: number, year: number, today: string): boolean {
  const [y, m] = today.split('-').map(Number);
  if (y === undefined || m === undefined) return false;
  return year < y || (year === y && month < m);
}

/** How a card is named in lists and messages: 'Visa ending 4242'. */
export function cardLabel(brand: CardBrand, last4: string): string {
  return `${CARD_BRAND_LABELS[brand]} ending ${last4}`;
}

/** The texts of the payment method and case payment rules (written once; spec's 400 shape). */
export const PAYMENT_METHOD_MESSAGES = {
  /** DELETE of the default card while another card is saved. */
  defaultInUse: 'Make another card the default before removing this one.',
  /** POST /api/payment-methods/ with a setup intent not this customer's, or unknown. */
  setupIntentUnknown: 'This card setup was not found. Start again.',
  /** ...with a setup intent the card issuer or the cardholder did not complete. */
  setupIntentNotSucceeded: 'The card was not saved: its setup was not completed.',
  /** ...with a setup intent already recorded. */
  setupIntentUsed: 'This card is already saved.',
  /** The payments provider could not be reached (503). */
  providerUnavailable: 'The payments service is not available. Try again in a few minutes.',
  /** POST /api/cases/{id}/retry-payment/ when nothing awaits payment. */
  nothingToRetry: 'This case has no payment to retry.',
  /**
   * Resending a person's invitation (or reminding them of a case) while their case awaits its
   * payment (payment_needed or pending): it goes by itself once the case is paid.
   */
  invitationAwaitsPayment:
    "This person's case is awaiting payment: their invitation is sent once the payment succeeds.",
  /** DELETE of a card the payments provider refused to detach (502): nothing changed. */
  detachRefused:
    'The payments service refused to remove this card. Nothing has changed: try again later.',
  /**
   * Shown by the saved cards: a card saved or made the default retries what failed (issue 31,
   * the card-retry job).
   */
  automaticRetry:
    'Failed subscription payments and cases awaiting payment are retried automatically when a card is saved or made the default.',
  /** The same, shown by a failed billing period and a case's 'Payment needed' banner. */
  retriedWhenCardSaved: 'Retried automatically when a card is saved or made the default.',
} as const;

/**
 * Why a case is held for payment (`payment.reason`): no saved card, or the provider's decline
 * message (e.g. 'Your card was declined.').
 */
export const CASE_PAYMENT_REASONS = {
  noPaymentMethod: 'No saved card: add a payment method, then retry the payment.',
  authenticationRequired:
    'The card issuer asks for authentication: add the card again, then retry the payment.',
} as const;

/** POST /api/payment-methods/setup-intent/: the setup intent the browser confirms a card with. */
export const setupIntentOut = z.strictObject({
  /** The provider's setup intent id (`seti_...`): POST /api/payment-methods/ {setup_intent}. */
  id: z.string(),
  client_secret: z.string(),
  status: z.enum(SETUP_INTENT_STATUSES),
  /** Where a 3-D Secure challenge continues (requires_action), else null. */
  next_action_url: z.string().nullable(),
  provider: z.enum(PAYMENT_PROVIDERS),
  /**
   * Where the browser confirms it: `POST {api_base}/v1/setup_intents/{id}/confirm` (form-encoded
   * as Stripe.js sends it: key, client_secret, payment_method_data[card][number], [exp_month],
   * [exp_year], [cvc], return_url).
   */
  api_base: z.string(),
  /** The brand's publishable key (by the host the request came through). */
  publishable_key: z.string(),
});
export type SetupIntentOut = z.infer<typeof setupIntentOut>;

/** A setup intent id as the provider makes them. */
export const setupIntentId = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, { error: MESSAGES.required, abort: true })
  .max(100, PAYMENT_METHOD_MESSAGES.setupIntentUnknown)
  .regex(/^seti_[A-Za-z0-9_]+$/, PAYMENT_METHOD_MESSAGES.setupIntentUnknown);

/** POST /api/payment-methods/: records the card a confirmed setup intent saved. */
export const paymentMethodCreate = z.object({ setup_intent: setupIntentId });
export type PaymentMethodCreate = z.infer<typeof paymentMethodCreate>;

/** A saved card (GET /api/payment-methods/, newest first, the default on top). */
export const paymentMethodOut = z.strictObject({
  id: z.number(),
  brand: z.enum(CARD_BRANDS),
  /** 'Visa', 'Mastercard'... */
  brand_display: z.string(),
  last4: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
  /** MM/YY. */
  expiry_display: z.string(),
  expired: z.boolean(),
  is_default: z.boolean(),
  /** 'Visa ending 4242'. */
  label: z.string(),
  created_at: timestampOut,
});
export type PaymentMethodOut = z.infer<typeof paymentMethodOut>;

/** GET /api/payment-settings/: the billing email and how the customer pays. */
export const paymentSettingsOut = z.strictObject({
  /** Where receipts go ('' when none is set). */
  billing_email: z.string(),
  /** True when the pricebook in force says 'invoiced': cases are not charged to a card. */
  invoiced: z.boolean(),
  /** The default card's id, null when none is saved. */
  default_payment_method: z.number().nullable(),
});
export type PaymentSettingsOut = z.infer<typeof paymentSettingsOut>;

/** PUT /api/payment-settings/: the billing email ('' clears it). */
export const paymentSettingsUpdate = z.object({
  billing_email: z
    .string({ error: MESSAGES.required })
    .trim()
    .max(100, maxCharacters(100))
    .refine((v) => v === '' || EMAIL_PATTERN.test(v), MESSAGES.invalidEmail),
});
export type PaymentSettingsUpdate = z.infer<typeof paymentSettingsUpdate>;

/**
 * A case's payment (the case detail's `payment`, null when the case is not charged: free,
 * invoiced, or no pricebook): `pending` while the charge runs, `paid`, or `payment_needed` (the
 * card was declined or none is saved: the subject's invitation waits; POST
 * /api/cases/{id}/retry-payment/ charges again).
 */
export const CASE_PAYMENT_STATES = ['pending', 'paid', 'payment_needed'] as const;
export type CasePaymentState = (typeof CASE_PAYMENT_STATES)[number];

export const CASE_PAYMENT_STATE_LABELS: Record<CasePaymentState, string> = {
  pending: 'Payment in progress',
  paid: 'Paid',
  payment_needed: 'Payment needed',
};

export const casePaymentOut = z.strictObject({
  state: z.enum(CASE_PAYMENT_STATES),
  /** 'Payment in progress', 'Paid', 'Payment needed'. */
  state_display: z.string(),
  amount_pence: z.number().int(),
  amount_display: z.string(),
  /** Why payment is needed (no card, the decline message), else null. */
  reason: z.string().nullable(),
  /** The product payment of the latest attempt (GET /api/payments/product-{id}/). */
  product_payment: z.number(),
  /** Attempts so far (1, then one more per retry). */
  attempts: z.number().int(),
  /** The card charged (its label), when one was. */
  card: z.string().nullable(),
});
export type CasePaymentOut = z.infer<typeof casePaymentOut>;
