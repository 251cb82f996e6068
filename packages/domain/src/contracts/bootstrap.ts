import { z } from 'zod';
import { ENTITLEMENTS } from '../permissions.js';

/** /api/content-types/ (and /api/s/content-types/): the models audit rows name. */
export const contentTypeOut = z.strictObject({
  id: z.number(),
  app_label: z.string(),
  model: z.string(),
});
export type ContentTypeOut = z.infer<typeof contentTypeOut>;

/** /api/activity-types/: the kinds of check the session customer may use. */
export const activityTypeOut = z.strictObject({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  kind: z.string(),
});
export type ActivityTypeOut = z.infer<typeof activityTypeOut>;

/** /api/verbs/: the audit verbs. */
export const verbOut = z.strictObject({ id: z.number(), code: z.string(), name: z.string() });
export type VerbOut = z.infer<typeof verbOut>;

/** /api/entitlements/: the session customer's entitlements. */
export const entitlementOut = z.strictObject({
  id: z.number(),
  entitlement: z.enum(ENTITLEMENTS),
});
export type EntitlementOut = z.infer<typeof entitlementOut>;

/** /api/roles/ (roleOut) is in roles.ts. */

// The country map (/api/countries/, /api/s/cases/country-map/) is in case-country-map.ts.
