import { z } from 'zod';
import { CYCLE_INTERVAL_MAX } from '../cycles.js';
import { BILLING_TRIGGERS } from '../formatting.js';
import { MESSAGES, maxCharacters } from '../messages.js';
import { timestampOut } from './common.js';

export const CYCLE_NAME_MAX = 100;
export const CYCLE_REQUIREMENTS_MAX = 10;

/** A cycle with subscriptions still active or paused cannot be deleted (400, non_field_errors). */
export const CYCLE_IN_USE = 'This cycle has active subscriptions: end them before deleting it.';

const interval = z
  .number({ error: 'A valid integer is required.' })
  .int('A valid integer is required.')
  .min(1, 'Ensure this value is greater than or equal to 1.')
  .max(CYCLE_INTERVAL_MAX, `Ensure this value is less than or equal to ${CYCLE_INTERVAL_MAX}.`);
/** weekly, monthly or yearly (spec point 3 'Pricing'): the unit of a period. */
const unit = z.enum(BILLING_TRIGGERS, { error: 'Choose weekly, monthly or yearly.' });

const cycleFields = {
  name: z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, MESSAGES.required)
    .max(CYCLE_NAME_MAX, maxCharacters(CYCLE_NAME_MAX)),
  /**
   * Activity type codes that repeat (e.g. `dbs-update`, `driver-data`): each one the customer
   * may order (the server checks; `{"requirements.0": ["Unknown activity type 'x'."]}`).
   */
  requirements: z
    .array(z.string().trim().min(1, MESSAGES.required).max(50), { error: MESSAGES.required })
    .min(1, 'Choose at least one requirement.')
    .max(CYCLE_REQUIREMENTS_MAX, `At most ${CYCLE_REQUIREMENTS_MAX} requirements.`)
    .refine((l) => new Set(l).size === l.length, 'Each requirement may be chosen once.'),
  /** The requirements repeat every `repeat_interval` `repeat_unit` (6, monthly). */
  repeat_interval: interval,
  repeat_unit: unit,
  /** The billing cycle: interval and triggered. */
  billing_interval: interval,
  billing_triggered: unit,
  is_active: z.boolean(),
};

/** PUT /api/processes/{id}/cycles/{cycleId}/ (PATCH: the same, partial). */
export const cycleUpdate = z.object(cycleFields);
export type CycleUpdate = z.output<typeof cycleUpdate>;

/** POST /api/processes/{id}/cycles/: `is_active` defaults to true. */
export const cycleCreate = z.object({
  ...cycleFields,
  is_active: cycleFields.is_active.default(true),
});
export type CycleCreate = z.output<typeof cycleCreate>;

/** A cycle as /api/processes/{id}/cycles/ returns it. */
export const cycleOut = z.strictObject({
  id: z.number(),
  process: z.number(),
  process_name: z.string(),
  name: z.string(),
  requirements: z.array(z.string()),
  repeat_interval: z.number(),
  repeat_unit: unit,
  /** 'Every 6 months' (spec point 9). */
  repeat_text: z.string(),
  billing_interval: z.number(),
  billing_triggered: unit,
  /** 'Every year' (spec point 9). */
  billing_text: z.string(),
  /** Per billing period, from the customer's pricebook in force (the requirements' prices). */
  price_pence: z.number().int(),
  price_display: z.string(),
  /** Some requirement has no price in the pricebook (the price is of those that do). */
  price_incomplete: z.boolean(),
  is_active: z.boolean(),
  /** Subscriptions active or paused. */
  subscription_count: z.number(),
  created_at: timestampOut,
  updated_at: timestampOut,
});
export type CycleOut = z.infer<typeof cycleOut>;
