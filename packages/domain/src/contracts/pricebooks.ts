import { z } from 'zod';
import { ACTIVITY_KIND_CODES, type ActivityKindCode } from '../activity-kinds.js';
import {
  CHECK_LEVELS,
  type CheckLevel,
  checkLevel,
  isTopUpKind,
  PAPER_CERTIFICATE_TOP_UP_REASON,
  priceListTopUp,
} from '../checks/top-up.js';
import { isoDateSchema } from '../dates.js';
import { formatPence } from '../formatting.js';

/**
 * Pricebooks (issue 29): a customer's price per kind of check (and level), in pence, valid from
 * one date to another (both inclusive; no end: open). One active pricebook per customer at a
 * time: the validity ranges of one customer's pricebooks never overlap.
 */
export const PRICEBOOK_OVERLAP =
  "Another of this customer's pricebooks is valid on some of these dates. One pricebook may be active at a time.";
export const PRICEBOOK_DATES_ORDER = 'The end date must not be before the start date.';
export const PRICEBOOK_DUPLICATE_PRICE = 'Each kind of check and level may have one price.';
export const PRICEBOOK_LEVEL_INVALID = 'This kind of check has no such level.';

/** The highest price a pricebook takes: £100,000.00. */
export const PRICE_MAX_PENCE = 10_000_000;

/** The levels a kind is priced at: the DBS checks per certificate level, the others one price. */
export function priceLevelsOf(code: string): readonly (CheckLevel | null)[] {
  return isTopUpKind(code) ? CHECK_LEVELS : [null];
}

export const PRICE_LEVEL_LABELS: Record<CheckLevel, string> = {
  online: 'Online certificate',
  'paper-certificate': 'Paper certificate by post',
};

export const pricebookPriceIn = z.strictObject({
  activity_type: z.enum(ACTIVITY_KIND_CODES as [ActivityKindCode, ...ActivityKindCode[]]),
  level: z.enum(CHECK_LEVELS).nullable().default(null),
  amount_pence: z.number().int().min(0).max(PRICE_MAX_PENCE),
});
export type PricebookPriceIn = z.infer<typeof pricebookPriceIn>;

const pricebookFields = z.strictObject({
  name: z.string().trim().min(1).max(200),
  valid_from: isoDateSchema,
  valid_to: isoDateSchema.nullable().default(null),
  prices: z.array(pricebookPriceIn).max(200).default([]),
  /** The customer is invoiced for its checks: its cases are not charged per case (issue 30). */
  invoiced: z.boolean().optional(),
});

function checkPricebook(
  v: { valid_from?: string; valid_to?: string | null; prices?: PricebookPriceIn[] },
  ctx: z.RefinementCtx,
): void {
  if (v.valid_from && v.valid_to && v.valid_to < v.valid_from) {
    ctx.addIssue({ code: 'custom', path: ['valid_to'], message: PRICEBOOK_DATES_ORDER });
  }
  const seen = new Set<string>();
  (v.prices ?? []).forEach((p, i) => {
    if (!priceLevelsOf(p.activity_type).includes(p.level)) {
      ctx.addIssue({
        code: 'custom',
        path: ['prices', i, 'level'],
        message: PRICEBOOK_LEVEL_INVALID,
      });
    }
    const key = `${p.activity_type}/${p.level ?? ''}`;
    if (seen.has(key)) {
      ctx.addIssue({
        code: 'custom',
        path: ['prices', i, 'activity_type'],
        message: PRICEBOOK_DUPLICATE_PRICE,
      });
    }
    seen.add(key);
  });
}

/** POST /api/ops/customers/{id}/pricebooks/ */
export const pricebookCreate = pricebookFields.superRefine(checkPricebook);
export type PricebookCreate = z.infer<typeof pricebookCreate>;

/** PATCH /api/ops/customers/{id}/pricebooks/{pbId}/ (prices, when given, replace them all). */
export const pricebookUpdate = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    valid_from: isoDateSchema.optional(),
    valid_to: isoDateSchema.nullable().optional(),
    prices: z.array(pricebookPriceIn).max(200).optional(),
    invoiced: z.boolean().optional(),
  })
  .superRefine(checkPricebook);
export type PricebookUpdate = z.infer<typeof pricebookUpdate>;

export const pricebookPriceOut = z.strictObject({
  activity_type: z.string(),
  level: z.enum(CHECK_LEVELS).nullable(),
  amount_pence: z.number().int(),
  /** '£12.50' */
  amount_display: z.string(),
});
export type PricebookPriceOut = z.infer<typeof pricebookPriceOut>;

export const pricebookOut = z.strictObject({
  id: z.number(),
  customer_id: z.number(),
  name: z.string(),
  valid_from: z.string(),
  valid_to: z.string().nullable(),
  /** Valid today. */
  active: z.boolean(),
  created_at: z.string(),
  created_by_name: z.string(),
  prices: z.array(pricebookPriceOut),
  /** Invoiced: the customer's cases are not charged to its card one by one (issue 30). */
  invoiced: z.boolean(),
});
export type PricebookOut = z.infer<typeof pricebookOut>;

/** Whether a pricebook valid from `from` to `to` (inclusive, null: open) is valid on `day`. */
export function pricebookActiveOn(
  range: { valid_from: string; valid_to: string | null },
  day: string,
): boolean {
  return range.valid_from <= day && (range.valid_to === null || range.valid_to >= day);
}

/** Whether two validity ranges (inclusive, null end: open) share a day. */
export function pricebookRangesOverlap(
  a: { valid_from: string; valid_to: string | null },
  b: { valid_from: string; valid_to: string | null },
): boolean {
  return (
    (a.valid_to === null || a.valid_to >= b.valid_from) &&
    (b.valid_to === null || b.valid_to >= a.valid_from)
  );
}

export function pricePresent(p: {
  activity_type: string;
  level: CheckLevel | null;
  amount_pence: number;
}): PricebookPriceOut {
  return { ...p, amount_display: formatPence(p.amount_pence) };
}

type PriceRow = { activity_type: string; level: CheckLevel | null; amount_pence: number };

/** The price a pricebook's rows give a kind at a level, or null when it names none. */
export function priceOf(
  prices: readonly PriceRow[],
  code: string,
  level: CheckLevel | null,
): number | null {
  return prices.find((p) => p.activity_type === code && p.level === level)?.amount_pence ?? null;
}

/**
 * The top-up a check of `code` with `config` demands: with the customer's active pricebook
 * pricing both levels of the kind, the paper certificate's price above the online one's (none
 * when not above); without (no active pricebook, or one that does not price both levels), the
 * default price list's (priceListTopUp, TOP_UP_PRICE_LIST).
 */
export function pricebookTopUp(
  code: string,
  config: { paper_cert?: boolean | null | undefined },
  prices: readonly PriceRow[] | null,
): { amount_pence: number; reason: string } | null {
  const fallback = priceListTopUp(code, config);
  if (!isTopUpKind(code) || prices === null) return fallback;
  const online = priceOf(prices, code, 'online');
  const paper = priceOf(prices, code, 'paper-certificate');
  if (online === null || paper === null) return fallback;
  if (config.paper_cert !== true) return null;
  const amount = paper - online;
  return amount > 0 ? { amount_pence: amount, reason: PAPER_CERTIFICATE_TOP_UP_REASON } : null;
}

/** A case's cost before it is created: GET /api/pricebooks/quote/?process=<id>. */
export const quoteLineOut = z.strictObject({
  activity_type: z.string(),
  name: z.string(),
  level: z.enum(CHECK_LEVELS).nullable(),
  /** null: the active pricebook does not price it (or there is none). */
  amount_pence: z.number().int().nullable(),
  amount_display: z.string(),
});
export type QuoteLineOut = z.infer<typeof quoteLineOut>;

export const quoteOut = z.strictObject({
  process_id: z.number(),
  pricebook_id: z.number().nullable(),
  total_pence: z.number().int(),
  total_display: z.string(),
  /** Some line has no price: the total is of the priced lines. */
  incomplete: z.boolean(),
  lines: z.array(quoteLineOut),
});
export type QuoteOut = z.infer<typeof quoteOut>;

export const PRICE_NOT_SET = 'No price set';

/** A case's quote from its checks (kind and configuration) and the active pricebook's prices. */
export function quoteOf(
  processId: number,
  pricebookId: number | null,
  prices: readonly PriceRow[],
  checks: readonly { code: string; name: string; config: { paper_cert?: boolean | null } }[],
): QuoteOut {
  const lines = checks.map((c): QuoteLineOut => {
    const level: CheckLevel | null = isTopUpKind(c.code) ? checkLevel(c.config) : null;
    const amount = priceOf(prices, c.code, level);
    return {
      activity_type: c.code,
      name: c.name,
      level,
      amount_pence: amount,
      amount_display: amount === null ? PRICE_NOT_SET : formatPence(amount),
    };
  });
  const total = lines.reduce((sum, l) => sum + (l.amount_pence ?? 0), 0);
  return {
    process_id: processId,
    pricebook_id: pricebookId,
    total_pence: total,
    total_display: formatPence(total),
    incomplete: lines.some((l) => l.amount_pence === null),
    lines,
  };
}
