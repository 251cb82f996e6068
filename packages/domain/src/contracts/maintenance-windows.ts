import { z } from 'zod';
import { isoDateTimeSchema } from '../dates.js';

export const MAINTENANCE_REASON_MAX = 200;

/** POST and PUT /api/ops/maintenance-windows/ (PATCH: the same, partial). */
export const maintenanceWindowInput = z.object({
  start: isoDateTimeSchema,
  end: isoDateTimeSchema,
  warning_start: isoDateTimeSchema,
  reason: z.string().max(MAINTENANCE_REASON_MAX).default(''),
});

/** A scheduled maintenance window as operations staff see it. */
export const maintenanceWindowRecordOut = z.strictObject({
  id: z.number(),
  start: z.string(),
  end: z.string(),
  warning_start: z.string(),
  reason: z.string(),
});
export type MaintenanceWindowRecordOut = z.infer<typeof maintenanceWindowRecordOut>;
