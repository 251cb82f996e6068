import { z } from 'zod';
import { BRAND_DETAILS, type BrandDetails } from '../brands.js';
import { ENTITLEMENTS } from '../permissions.js';
import {
  emailSchema,
  forenameSchema,
  optionalEmailSchema,
  phoneOrBlankSchema,
  surnameSchema,
} from '../text-rules.js';
import { USER_STATUSES } from '../user-admin.js';
import { idSchema, nullableTimestampOut, timestampOut } from './common.js';

export const CUSTOMER_NAME_MAX = 200;

const customerName = z.string().trim().min(1, 'Required').max(CUSTOMER_NAME_MAX);
const entitlement = z.enum(ENTITLEMENTS);

/** The white-label brand a customer's people see (an id of BRAND_DETAILS). */
const brand = z.enum(
  BRAND_DETAILS.map((b) => b.id) as [BrandDetails['id'], ...BrandDetails['id'][]],
);
export type CustomerBrand = z.infer<typeof brand>;

/** Whom operations talk to at the customer: each part optional ('' when not known). */
const contact = {
  contact_name: z.string().trim().max(120, 'Ensure this field has no more than 120 characters.'),
  contact_email: optionalEmailSchema.transform((v) => v ?? ''),
  contact_phone: phoneOrBlankSchema,
};

/** A customer's first administrator, invited by email (set-password link). */
export const customerAdminIn = z.object({
  first_name: forenameSchema,
  last_name: surnameSchema,
  email: emailSchema,
});

/**
 * POST /api/ops/customers/: the customer, its contact, the activity types it may order (absent:
 * every type) and its first administrator, in one transaction.
 */
export const customerCreate = z.object({
  name: customerName,
  brand: brand.default('kestrel'),
  contact_name: contact.contact_name.default(''),
  contact_email: contact.contact_email,
  contact_phone: contact.contact_phone.default(''),
  demo_mode: z.boolean().default(false),
  entitlements: z.array(entitlement).default([]),
  activity_types: z.array(idSchema).max(100).optional(),
  admin: customerAdminIn.optional(),
});
export type CustomerCreate = z.output<typeof customerCreate>;

/** PUT /api/ops/customers/{id}/ (PATCH: the same, partial). */
export const customerUpdate = z.object({
  name: customerName,
  brand,
  ...contact,
  demo_mode: z.boolean(),
  is_active: z.boolean(),
  entitlements: z.array(entitlement),
  /** The activity types it may order (absent: unchanged); the others are switched off. */
  activity_types: z.array(idSchema).max(100).optional(),
});

/** A customer organisation as operations staff see it (/api/ops/customers/). */
export const customerOut = z.strictObject({
  id: z.number(),
  name: z.string(),
  demo_mode: z.boolean(),
  is_active: z.boolean(),
  created_at: timestampOut,
  brand,
  contact_name: z.string(),
  contact_email: z.string(),
  contact_phone: z.string(),
  entitlements: z.array(entitlement),
  /** The activity types it may order (ids of /api/activity-types/). */
  activity_types: z.array(z.number()),
  /** Its cases not archived, in all and by state (kept counts, no scan). */
  case_count: z.number(),
  cases_by_state: z.record(z.string(), z.number()),
  user_count: z.number(),
});
export type CustomerOut = z.infer<typeof customerOut>;

/** POST and DELETE /api/ops/session/: act for one customer, or stop. */
export const opsSessionCreate = z.object({ customer: idSchema });
export const opsSessionOut = z.strictObject({
  csrf_token: z.string(),
  session_customer: z.number().nullable(),
});
export type OpsSessionOut = z.infer<typeof opsSessionOut>;

/** A customer's staff member as operations see it (/api/ops/customers/{id}/users/). */
export const opsCustomerUserOut = z.strictObject({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  job_title: z.string(),
  is_active: z.boolean(),
  /** Invited (never signed in), active or deactivated, as the customer's own users list says. */
  status: z.enum(USER_STATUSES),
  last_login_at: nullableTimestampOut,
  created_at: timestampOut,
  roles: z.array(z.string()),
});
export type OpsCustomerUserOut = z.infer<typeof opsCustomerUserOut>;

/** POST /api/ops/customers/{id}/users/: invite one (the customer's admin role when asked). */
export const opsCustomerUserInvite = z.object({
  first_name: forenameSchema,
  last_name: surnameSchema,
  email: emailSchema,
  administrator: z.boolean().default(false),
});
export type OpsCustomerUserInvite = z.output<typeof opsCustomerUserInvite>;
