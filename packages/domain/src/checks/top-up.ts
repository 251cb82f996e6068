import { z } from 'zod';
import { TOP_UP_KINDS, type TopUpKind } from '../activity-kinds.js';

/*
 * A top-up: a payment the provider or the price list demands before a check goes on. The
 * activity keeps it in `processing_data.top_up` and shows 'Awaiting top-up payment' (with a
 * payment link) while it is awaited; payments settles it (paid or declined).
 */

export const TOP_UP_STATUSES = ['awaiting', 'paid', 'declined'] as const;
export type TopUpStatus = (typeof TOP_UP_STATUSES)[number];

/** The link to the payment portal beside 'Awaiting top-up payment' (DBS_RESULT_TEXTS). */
export const PAY_TOP_UP_LABEL = 'Pay the top-up';

/**
 * Our own wording: a provider that asks for a top-up again once one was paid is not charged again
 * on its word (its interface names no demand, so a new one cannot be told from a late repeat):
 * the check waits for a person's decision, with this on its log.
 */
export const TOP_UP_DEMANDED_AGAIN =
  'The provider asked for a top-up again after one was paid. Check with the provider, then cancel or complete this check.';

export const topUpSchema = z
  .object({
    /** Pence. */
    amount_pence: z.number().int().positive(),
    reason: z.string().min(1).max(200),
    status: z.enum(TOP_UP_STATUSES),
    /** The payment intent that settled it (or is paying it); null until one exists. */
    payment_intent: z.string().min(1).max(100).nullable(),
  })
  .strict();
export type TopUp = z.infer<typeof topUpSchema>;

// The kinds of check a top-up can apply to: TOP_UP_KINDS, `topUp` in the activity-kind
// registry (the criminal-record family).

/**
 * A check's level, as the price list prices it: the certificate by email only, or also on
 * paper (the activity's `paper_cert` option), which is posted and costs more.
 */
export const CHECK_LEVELS = ['online', 'paper-certificate'] as const;
export type CheckLevel = (typeof CHECK_LEVELS)[number];

/**
 * What the price list demands on top of a check's price, per kind and level, in pence (0: no
 * top-up). The posted paper certificate is the one surcharge.
 */
export const TOP_UP_PRICE_LIST: Record<TopUpKind, Record<CheckLevel, number>> = {
  'dbs-basic': { online: 0, 'paper-certificate': 350 },
  'dbs-standard': { online: 0, 'paper-certificate': 350 },
  'dbs-enhanced': { online: 0, 'paper-certificate': 350 },
};

export const PAPER_CERTIFICATE_TOP_UP_REASON = 'Paper certificate by post';

/** The level of a check from its configuration. */
export function checkLevel(config: { paper_cert?: boolean | null | undefined }): CheckLevel {
  return config.paper_cert === true ? 'paper-certificate' : 'online';
}

export function isTopUpKind(code: string): code is TopUpKind {
  return (TOP_UP_KINDS as readonly string[]).includes(code);
}

/** The top-up the price list demands for a check of `code` with `config`, or null for none. */
export function priceListTopUp(
  code: string,
  config: { paper_cert?: boolean | null | undefined },
): { amount_pence: number; reason: string } | null {
  if (!isTopUpKind(code)) return null;
  const level = checkLevel(config);
  const amount = TOP_UP_PRICE_LIST[code][level];
  return amount > 0 ? { amount_pence: amount, reason: PAPER_CERTIFICATE_TOP_UP_REASON } : null;
}
