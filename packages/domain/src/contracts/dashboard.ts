import { z } from 'zod';
import { CASE_STATES } from '../states.js';
import { auditActionOut } from './audit-actions.js';

export const weekCountOut = z.strictObject({ week_start: z.string(), count: z.number() });
export type WeekCountOut = z.infer<typeof weekCountOut>;

/** GET /api/dashboard/: counts, the completed cases of the last 12 weeks, the recent audit. */
export const dashboardOut = z.strictObject({
  cases_by_state: z.record(z.enum(CASE_STATES), z.number()),
  open_cases: z.number(),
  outstanding_activities: z.number(),
  flagged_cases: z.number(),
  active_flags: z.number(),
  completed_by_week: z.array(weekCountOut),
  /** The last ten audit rows (empty without audit.view_auditaction). */
  recent_audit: z.array(auditActionOut),
});
export type DashboardOut = z.infer<typeof dashboardOut>;
