import { z } from 'zod';
import { CUSTOMER_PERMISSIONS } from '../permission-words.js';
import { isPermission } from '../permissions.js';
import { USER_ADMIN_MESSAGES } from '../user-admin.js';

/** /api/roles/: the customer's roles with their permissions (built-in ones read-only). */
export const roleOut = z.strictObject({
  id: z.number(),
  name: z.string(),
  permissions: z.array(z.string()),
  /** A built-in role (customer_id null, or a template every customer starts with): read-only. */
  built_in: z.boolean(),
  /** How many of the customer's users hold it (a role is deleted only when none does). */
  user_count: z.number(),
});
export type RoleOut = z.infer<typeof roleOut>;

/** A permission a customer's role may hold (spec point 6's strings, never ops-only ones). */
const rolePermission = z
  .string()
  .refine((p) => isPermission(p) && CUSTOMER_PERMISSIONS.includes(p), {
    error: (issue) => USER_ADMIN_MESSAGES.unknownPermission(String(issue.input)),
  });

/** POST and PUT /api/roles/ (PATCH: partial): a custom role of the session customer. */
export const roleCreate = z.object({
  name: z.string().trim().min(1, 'Required').max(100),
  permissions: z
    .array(rolePermission)
    .max(200)
    .transform((ps) => [...new Set(ps)].sort()),
});
export type RoleCreate = z.output<typeof roleCreate>;
export const roleUpdate = roleCreate;
