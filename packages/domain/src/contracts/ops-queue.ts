import { z } from 'zod';
import { OPS_AGE_BUCKETS } from '../ops-queue.js';
import { nullableTimestampOut, timestampOut } from './common.js';

/** Who holds an activity of operations' work queue (issue 29), or null. */
export const activityClaimOut = z.strictObject({
  user_id: z.number(),
  name: z.string(),
  claimed_at: timestampOut,
});
export type ActivityClaimOut = z.infer<typeof activityClaimOut>;

/** The body of a claim or a release: none, or a reason kept in the audit trail. */
export const activityClaimIn = z
  .strictObject({ reason: z.string().trim().max(200).optional() })
  .nullish();

/** POST /api/ops/outstanding-activities/{id}/claim/ and .../release/: the activity's claim now. */
export const activityClaimResultOut = z.strictObject({
  id: z.number(),
  claim: activityClaimOut.nullable(),
});
export type ActivityClaimResultOut = z.infer<typeof activityClaimResultOut>;

const filterParam = (description: string) => z.string().max(200).optional().describe(description);

/** The work queue's own filters on GET /api/ops/outstanding-activities/. */
export const opsQueueFilters = {
  assignee: filterParam('me, unassigned or anyone (the default)'),
  older_than_days: filterParam('waiting for at least this many days (0-3650)'),
  newer_than_days: filterParam('waiting for less than this many days (1-3650)'),
  past_target: filterParam('true: only the checks past their target time'),
};

const ageBucketKeys = OPS_AGE_BUCKETS.map((b) => b.key) as [
  (typeof OPS_AGE_BUCKETS)[number]['key'],
  ...(typeof OPS_AGE_BUCKETS)[number]['key'][],
];

/** GET /api/ops/dashboard/: operations' morning view. */
export const opsDashboardOut = z.strictObject({
  waiting: z.strictObject({
    total: z.number(),
    past_target: z.number(),
    unassigned: z.number(),
    oldest_since: nullableTimestampOut,
  }),
  /** By kind, the most overdue first: each kind's target (hours), count and those past it. */
  by_kind: z.array(
    z.strictObject({
      activity_type: z.string(),
      activity_type_name: z.string(),
      target_hours: z.number(),
      count: z.number(),
      past_target: z.number(),
      oldest_since: timestampOut,
    }),
  ),
  /** By age, oldest first (every bucket, 0 when empty). */
  by_age: z.array(
    z.strictObject({
      bucket: z.enum(ageBucketKeys),
      label: z.string(),
      min_days: z.number(),
      max_days: z.number().nullable(),
      count: z.number(),
    }),
  ),
  /** Activities completed per week, the last 12 weeks (Monday starts), oldest first. */
  completed_by_week: z.array(z.strictObject({ week_start: z.string(), count: z.number() })),
  /** Checks whose start failed at their provider (state ca-error-initiating). */
  provider_errors: z.number(),
  /** Jobs whose retries are exhausted (the dead-letter list of /api/ops/jobs/?state=failed). */
  dead_jobs: z.number(),
  /** Checks past their expected date escalated to operations and still open (issue 33). */
  open_escalations: z.number(),
  /**
   * Top-up payments declined, or awaiting payment for over a day; refunds the payments provider
   * has not answered for over REFUND_UNANSWERED_HOURS (still pending after the retries).
   */
  payments: z.strictObject({
    declined: z.number(),
    awaiting: z.number(),
    refunds_unanswered: z.number(),
  }),
  /** Imports running, when the imports module is there (null without it). */
  imports_running: z.number().nullable(),
});
export type OpsDashboardOut = z.infer<typeof opsDashboardOut>;
