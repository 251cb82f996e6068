import { z } from 'zod';
import { ENTITLEMENTS } from '../permissions.js';
import { idSchema, timestampOut } from './common.js';

export const CUSTOMER_NAME_MAX = 200;

const customerName = z.string().trim().min(1, 'Required').max(CUSTOMER_NAME_MAX);
const entitlement = z.enum(ENTITLEMENTS);

/** POST /api/ops/customers/. */
export const customerCreate = z.object({
  name: customerName,
  demo_mode: z.boolean().default(false),
  entitlements: z.array(entitlement).default([]),
});

/** PUT /api/ops/customers/{id}/ (PATCH: the same, partial). */
export const customerUpdate = z.object({
  name: customerName,
  demo_mode: z.boolean(),
  is_active: z.boolean(),
  entitlements: z.array(entitlement),
});

/** A customer organisation as operations staff see it (/api/ops/customers/). */
export const customerOut = z.strictObject({
  id: z.number(),
  name: z.string(),
  demo_mode: z.boolean(),
  is_active: z.boolean(),
  created_at: timestampOut,
  entitlements: z.array(entitlement),
});
export type CustomerOut = z.infer<typeof customerOut>;

/** POST and DELETE /api/ops/session/: act for one customer, or stop. */
export const opsSessionCreate = z.object({ customer: idSchema });
export const opsSessionOut = z.strictObject({
  csrf_token: z.string(),
  session_customer: z.number().nullable(),
});
export type OpsSessionOut = z.infer<typeof opsSessionOut>;
