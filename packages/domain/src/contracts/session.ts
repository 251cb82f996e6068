import { z } from 'zod';
import { USER_TYPES } from '../session.js';

export const userTypeOut = z.enum(USER_TYPES);

export const maintenanceWindowOut = z.strictObject({
  start: z.string(),
  end: z.string(),
  warning_start: z.string(),
});

/** GET /api/accounts/check-session/ (spec point 3). */
export const checkSessionOut = z.strictObject({
  authenticated: z.boolean(),
  csrf_token: z.string(),
  user_type: userTypeOut.nullable(),
  session_customer: z.number().nullable(),
  active_flags: z.number(),
  maintenance_window: maintenanceWindowOut.nullable(),
});
export type CheckSessionOut = z.infer<typeof checkSessionOut>;

/** POST /api/accounts/login/ and /api/user/claim-account/. */
export const loginOut = z.strictObject({ csrf_token: z.string(), user_type: userTypeOut });
export type LoginOut = z.infer<typeof loginOut>;
