import { z } from 'zod';
import { loginOut } from './session.js';

/** POST /api/accounts/login/. */
export const loginBody = z.object({
  username: z.string().trim().min(1, 'Required').max(254),
  password: z.string().min(1, 'Required').max(1000),
  totp: z.string().trim().max(10).optional(),
});

/** POST /api/accounts/password-reset/. */
export const passwordResetRequest = z.object({
  email: z.string().trim().min(1, 'Required').max(254),
});

/**
 * POST /api/accounts/password-reset-confirm/ and /api/user/claim-account/: the single-use token
 * (the server adds its password rule, see password-rule.ts).
 */
export const accountToken = z.object({ token: z.string().min(1, 'Required').max(200) });

/** An answer that is one message: `{detail}` (DRF's). */
export const detailOut = z.strictObject({ detail: z.string() });
export type DetailOut = z.infer<typeof detailOut>;

/** POST /api/accounts/registration/: signed in as the new customer's administrator. */
export const registrationOut = loginOut.extend({ customer: z.number() });
export type RegistrationOut = z.infer<typeof registrationOut>;
