import { z } from 'zod';
import { isoDateSchema } from '../dates.js';
import { MESSAGES, maxCharacters } from '../messages.js';
import { ENTITLEMENTS, PERMISSIONS } from '../permissions.js';
import {
  emailSchema,
  forenameSchema,
  NAME_PATTERN,
  phoneOrBlankSchema,
  surnameSchema,
} from '../text-rules.js';
import { USER_STATUSES } from '../user-admin.js';
import { idSchema, nullableTimestampOut, timestampOut } from './common.js';

const jobTitle = z.string().trim().max(100);

/** POST /api/accounts/registration/ (the password rule is the server's: see password-rule.ts). */
export const registrationFields = z.object({
  customer_name: z.string().trim().min(1, 'Required').max(200),
  first_name: forenameSchema,
  last_name: surnameSchema,
  email: emailSchema,
});

/** POST /api/users/: a staff member of the session customer. */
export const userCreate = z.object({
  email: emailSchema,
  first_name: forenameSchema,
  last_name: surnameSchema,
  job_title: jobTitle.default(''),
  roles: z.array(idSchema).max(20).default([]),
  /** The segments the user is limited to ([] = the whole organisation). */
  segments: z.array(idSchema).max(100).default([]),
});
export type UserCreate = z.output<typeof userCreate>;

/** PUT /api/users/{id}/ (PATCH: the same, partial). */
export const userUpdate = z.object({
  first_name: forenameSchema,
  last_name: surnameSchema,
  job_title: jobTitle,
  is_active: z.boolean(),
  roles: z.array(idSchema).max(20),
  segments: z.array(idSchema).max(100),
});

/** GET /api/users/ filters besides search: status and role (a role id). */
export const userListQuery = z.object({
  status: z.enum(USER_STATUSES).optional(),
  role: z.coerce.number().int().positive().optional(),
});

/** A staff member as /api/users/ returns it. */
export const userOut = z.strictObject({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  job_title: z.string(),
  is_active: z.boolean(),
  totp_enabled: z.boolean(),
  created_at: timestampOut,
  roles: z.array(z.number()),
  /** invited (never claimed), active or deactivated. */
  status: z.enum(USER_STATUSES),
  /** The last sign-in (the audit trail's last `logged_in`), null when never. */
  last_login_at: nullableTimestampOut,
  /** The segments the user is limited to ([] = the whole organisation). */
  segments: z.array(z.number()),
});
export type UserOut = z.infer<typeof userOut>;

/** PUT /api/user/ of a product user (every field optional). */
export const productProfileUpdate = z
  .object({
    first_name: forenameSchema,
    last_name: surnameSchema,
    job_title: jobTitle,
    dark_mode: z.boolean(),
    notifications: z.boolean(),
    avatar: z.string().max(500).nullable(),
    terms_agreed: z.boolean(),
  })
  .partial();

/** PUT /api/user/ of a subject user (every field optional). */
export const subjectProfileUpdate = z
  .object({
    first_name: forenameSchema,
    last_name: surnameSchema,
    /** '' clears it; otherwise the forename's letters rule (spec point 5). */
    middlename: z
      .string()
      .trim()
      .max(60, maxCharacters(60))
      .refine((v) => v === '' || NAME_PATTERN.test(v), MESSAGES.invalidCharacters),
    dark_mode: z.boolean(),
    dob: isoDateSchema.nullable(),
    phone_number: phoneOrBlankSchema,
    dbs_email_notifications: z.boolean(),
    terms_agreed: z.boolean(),
  })
  .partial();

/**
 * PUT /api/user/: a product user's fields or a subject user's, by the session's user type (the
 * server parses the body with that type's schema; fields of the other type are ignored).
 */
export const profileUpdate = z.union([productProfileUpdate, subjectProfileUpdate]);

/** PATCH /api/user/totp-validate/ and totp-disable/: a code of the authenticator app. */
export const totpCode = z.object({ totp: z.string().trim().min(1, 'Required').max(10) });

/** PATCH /api/user/totp-generate/: a new secret, pending until a code confirms it. */
export const totpSecretOut = z.strictObject({ secret: z.string(), otpauth_url: z.string() });
export type TotpSecretOut = z.infer<typeof totpSecretOut>;

export const productProfileOut = z.strictObject({
  id: z.number(),
  user_type: z.literal('ProductUser'),
  first_name: z.string(),
  last_name: z.string(),
  username: z.string(),
  email: z.string(),
  job_title: z.string(),
  dark_mode: z.boolean(),
  totp_enabled: z.boolean(),
  /**
   * The organisation requires two-factor sign-in and this user has not set it up: the web sends
   * them to profile-totp until they do (issue 30).
   */
  totp_setup_required: z.boolean(),
  notifications: z.boolean(),
  avatar: z.string().nullable(),
  roles: z.array(z.string()),
  is_ops: z.boolean(),
  customer: z.strictObject({ id: z.number(), name: z.string(), demo_mode: z.boolean() }).nullable(),
  session_permissions: z.array(z.enum(PERMISSIONS)),
  entitlements: z.array(z.enum(ENTITLEMENTS)),
  terms_agreed_at: nullableTimestampOut,
  /**
   * The segments the user is limited to (a user of segments who is not an administrator): they
   * see only those segments' cases and may not change who or what is in a segment. [] (or
   * absent): the whole organisation.
   */
  segments: z.array(z.number()).optional(),
});
export type ProductProfileOut = z.infer<typeof productProfileOut>;

export const subjectProfileOut = z.strictObject({
  id: z.number(),
  user_type: z.literal('SubjectUser'),
  first_name: z.string(),
  last_name: z.string(),
  middlename: z.string(),
  email: z.string(),
  dark_mode: z.boolean(),
  dob: z.string().nullable(),
  can_change_dob: z.boolean(),
  phone_number: z.string(),
  terms_agreed_at: nullableTimestampOut,
  dbs_email_notifications: z.boolean(),
  dvla_reconsents: z.array(z.unknown()),
});
export type SubjectProfileOut = z.infer<typeof subjectProfileOut>;

/** GET and PUT /api/user/: the profile of the signed-in user. */
export const profileOut = z.discriminatedUnion('user_type', [productProfileOut, subjectProfileOut]);
export type ProfileOut = z.infer<typeof profileOut>;
