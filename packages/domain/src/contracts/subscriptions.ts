import { z } from 'zod';
import { SUBSCRIPTION_STATES } from '../cycles.js';
import { idSchema, nullableTimestampOut, timestampOut } from './common.js';

export const SUBSCRIPTION_BULK_MAX = 500;

/** Messages of the subscription API (400s: `{"field": [message]}`). */
export const SUBSCRIPTION_MESSAGES = {
  alreadySubscribed: 'This subject already has a subscription to this cycle.',
  inactiveCycle: 'This cycle is not active.',
  archivedSubject: 'This subject is archived.',
  notAllowed: (action: string, state: string) =>
    `A subscription that is ${state} cannot ${action}.`,
} as const;

/**
 * POST /api/subjects/{id}/subscriptions/: the cycle, and optionally the first due date (ISO
 * 8601; default now: the first case opens at the job's next run).
 */
export const subscriptionCreate = z.object({
  cycle: idSchema,
  starts_at: z.iso.datetime({ offset: true, error: 'Enter a valid date and time.' }).optional(),
});
export type SubscriptionCreate = z.output<typeof subscriptionCreate>;

/** POST /api/subscriptions/bulk/: one cycle, many subjects (each subscribed once). */
export const subscriptionBulkCreate = z.object({
  cycle: idSchema,
  subjects: z
    .array(idSchema, { error: 'Required' })
    .min(1, 'Choose at least one subject.')
    .max(SUBSCRIPTION_BULK_MAX, `At most ${SUBSCRIPTION_BULK_MAX} subjects at once.`),
  starts_at: subscriptionCreate.shape.starts_at,
});
export type SubscriptionBulkCreate = z.output<typeof subscriptionBulkCreate>;

export const subscriptionStateSchema = z.enum(SUBSCRIPTION_STATES);

/** A subscription as /api/subscriptions/ and /api/subjects/{id}/subscriptions/ return it. */
export const subscriptionOut = z.strictObject({
  id: z.number(),
  subject: z.strictObject({
    id: z.number(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
  }),
  cycle: z.strictObject({
    id: z.number(),
    name: z.string(),
    requirements: z.array(z.string()),
    repeat_text: z.string(),
    billing_text: z.string(),
  }),
  process: z.strictObject({ id: z.number(), name: z.string() }),
  state: subscriptionStateSchema,
  state_display: z.string(),
  /** When its next case opens; null once ended. */
  next_due_at: nullableTimestampOut,
  /** When the customer is next billed; null once ended. */
  next_billing_at: nullableTimestampOut,
  /** The case its last due date opened, or null. */
  last_case: z.number().nullable(),
  cases_opened: z.number(),
  started_at: timestampOut,
  paused_at: nullableTimestampOut,
  ended_at: nullableTimestampOut,
  created_at: timestampOut,
});
export type SubscriptionOut = z.infer<typeof subscriptionOut>;

/** POST /api/subscriptions/bulk/ → 201. */
export const subscriptionBulkOut = z.strictObject({
  created: z.array(subscriptionOut),
  /** Subjects already subscribed to the cycle (left as they are). */
  skipped: z.array(z.number()),
});
export type SubscriptionBulkOut = z.infer<typeof subscriptionBulkOut>;

const param = (description: string) =>
  z
    .union([z.string().max(2000), z.array(z.string().max(2000)).max(100)])
    .optional()
    .describe(description);

/** GET /api/subscriptions/ (and /api/subjects/{id}/subscriptions/): sorted by next due date. */
export const subscriptionListFilters = {
  cycle: param('cycle ids, comma-separated (any of them)'),
  process: param('process ids, comma-separated (any of them)'),
  subject: param('subject ids, comma-separated (any of them)'),
  state: param('active, paused, ended; comma-separated'),
  due_after: param('next due on or after this date, YYYY-MM-DD (UTC)'),
  due_before: param('next due on or before this date, YYYY-MM-DD (UTC)'),
};

/*
 * A subscription's billing as staff see it (issue 31): its last billing period, invoiced or
 * charged to the card (paid, processing or failed with the reason).
 */
export const SUBSCRIPTION_BILLING_STATES = ['invoiced', 'paid', 'pending', 'failed'] as const;
export type SubscriptionBillingState = (typeof SUBSCRIPTION_BILLING_STATES)[number];

export const SUBSCRIPTION_BILLING_LABELS: Record<SubscriptionBillingState, string> = {
  invoiced: 'Invoiced',
  paid: 'Paid',
  pending: 'Payment pending',
  failed: 'Payment failed',
};

/** One subscription's last billing period (GET /api/subscriptions/billing/, the retry's 200). */
export const subscriptionBillingOut = z.strictObject({
  subscription: z.number(),
  /** subscription_charges' id: POST /api/subscription-charges/{id}/retry-payment/. */
  charge: z.number(),
  period: z.string(),
  amount_pence: z.number(),
  amount_display: z.string(),
  state: z.enum(SUBSCRIPTION_BILLING_STATES),
  state_display: z.string(),
  /** Why the last attempt failed; null unless failed. */
  reason: z.string().nullable(),
  attempts: z.number(),
});
export type SubscriptionBillingOut = z.infer<typeof subscriptionBillingOut>;
