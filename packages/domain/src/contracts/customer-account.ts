import { z } from 'zod';
import { CHECK_LEVELS } from '../checks/top-up.js';
import { MESSAGES, maxCharacters } from '../messages.js';
import { ENTITLEMENTS, type Entitlement } from '../permissions.js';
import { postcodeSchema } from '../postcode.js';
import { optionalEmailSchema, optionalText, phoneOrBlankSchema } from '../text-rules.js';
import { nullableTimestampOut, timestampOut } from './common.js';
import { CONSENT_KINDS } from './portal.js';

/**
 * The organisation's own account (issue 30, /customer-account): its details, entitlements
 * (read-only: operations switch them), the two-factor policy and the pricebook in force.
 */
export const ORGANISATION_NAME_MAX = 200;
export const ORGANISATION_LINE_MAX = 200;
export const ORGANISATION_TOWN_MAX = 100;
export const ORGANISATION_CONTACT_NAME_MAX = 120;

export const ENTITLEMENT_LABELS: Record<Entitlement, string> = {
  regportals: 'Registration portals',
  cycles: 'Billing cycles and subscriptions',
  subject_dedup: 'Finding duplicate subjects',
};

/** The sentence a user sent to set up two-factor sign-in reads (profile-totp). */
export const TOTP_REQUIRED_NOTICE =
  'Your organisation requires two-factor authentication. Set it up to continue.';

const blankable = (max: number) => z.string().trim().max(max, maxCharacters(max));

/** PATCH /api/customer-account/: any of the details and the two-factor policy. */
export const customerAccountUpdate = z.strictObject({
  name: z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, MESSAGES.required)
    .max(ORGANISATION_NAME_MAX, maxCharacters(ORGANISATION_NAME_MAX))
    .optional(),
  line_one: blankable(ORGANISATION_LINE_MAX).optional(),
  line_two: blankable(ORGANISATION_LINE_MAX).optional(),
  town: blankable(ORGANISATION_TOWN_MAX).optional(),
  /** A UK postcode (upper-cased), or '' when not known. */
  postcode: optionalText(postcodeSchema)
    .transform((v) => v ?? '')
    .optional(),
  contact_name: blankable(ORGANISATION_CONTACT_NAME_MAX).optional(),
  contact_email: optionalEmailSchema.transform((v) => v ?? '').optional(),
  /** E.164, or '' when not known. */
  contact_phone: phoneOrBlankSchema.optional(),
  /** Its staff must sign in with two-factor authentication (TOTP). */
  require_totp: z.boolean().optional(),
});
export type CustomerAccountUpdate = z.output<typeof customerAccountUpdate>;

export const accountPriceOut = z.strictObject({
  activity_type: z.string(),
  /** The kind of check in words (the activity type's name). */
  name: z.string(),
  level: z.enum(CHECK_LEVELS).nullable(),
  /** null: the pricebook names no price for it. */
  amount_pence: z.number().int().nullable(),
  /** '£12.50', or 'No price set'. */
  amount_display: z.string(),
});
export type AccountPriceOut = z.infer<typeof accountPriceOut>;

export const accountPricebookOut = z.strictObject({
  id: z.number(),
  name: z.string(),
  valid_from: z.string(),
  valid_to: z.string().nullable(),
  /** Invoiced: its cases are not charged to a card one by one. */
  invoiced: z.boolean(),
  prices: z.array(accountPriceOut),
});
export type AccountPricebookOut = z.infer<typeof accountPricebookOut>;

/** GET and PATCH /api/customer-account/. */
export const customerAccountOut = z.strictObject({
  id: z.number(),
  name: z.string(),
  line_one: z.string(),
  line_two: z.string(),
  town: z.string(),
  postcode: z.string(),
  contact_name: z.string(),
  contact_email: z.string(),
  contact_phone: z.string(),
  brand: z.string(),
  brand_name: z.string(),
  demo_mode: z.boolean(),
  created_at: timestampOut,
  entitlements: z.array(z.strictObject({ entitlement: z.enum(ENTITLEMENTS), label: z.string() })),
  require_totp: z.boolean(),
  /** The pricebook in force today, or null when none is. */
  pricebook: accountPricebookOut.nullable(),
});
export type CustomerAccountOut = z.infer<typeof customerAccountOut>;

// Subjects' consents as staff see them --------------------------------------------------------

/** `?state=` of GET /api/consents/: given (live, expiring included), withdrawn, expired. */
export const CONSENT_STATES = ['given', 'withdrawn', 'expired'] as const;
export type ConsentState = (typeof CONSENT_STATES)[number];

export const consentListFilters = z.object({
  kind: z.enum(CONSENT_KINDS).optional(),
  state: z.enum(CONSENT_STATES).optional(),
});

/** A consent a subject gave in the portal, for the customer's staff. */
export const staffConsentOut = z.strictObject({
  id: z.number(),
  subject: z.strictObject({ id: z.number(), name: z.string() }),
  case: z.number(),
  case_activity: z.number(),
  activity_type_name: z.string(),
  kind: z.enum(CONSENT_KINDS),
  kind_display: z.string(),
  given_at: timestampOut,
  expires_at: nullableTimestampOut,
  withdrawn_at: nullableTimestampOut,
  status: z.enum(['active', 'expiring', 'expired', 'withdrawn']),
});
export type StaffConsentOut = z.infer<typeof staffConsentOut>;
