import { z } from 'zod';
import { nullableTimestampOut, timestampOut } from './common.js';

/** A background job's states, in pg-boss's order (retry: to run again; failed: dead). */
export const JOB_STATES = [
  'created',
  'retry',
  'active',
  'completed',
  'cancelled',
  'failed',
] as const;
export type JobState = (typeof JOB_STATES)[number];

/** One job of /api/ops/jobs/ (its payload is not shown: an email's holds a single-use link). */
export const jobOut = z.strictObject({
  id: z.string(),
  name: z.string(),
  state: z.enum(JOB_STATES),
  retry_count: z.number(),
  retry_limit: z.number(),
  created_on: timestampOut,
  start_after: timestampOut,
  started_on: nullableTimestampOut,
  completed_on: nullableTimestampOut,
  /** The last failure's message (a failed or retrying job). */
  error: z.string().nullable(),
  /** Its payload in a line, without bodies or links (issue 33: the ops jobs screen). */
  data_summary: z.string(),
});
export type JobOut = z.infer<typeof jobOut>;

/** The query string of /api/ops/jobs/ besides the page: `state=failed,retry`, `name=`. */
export const jobsQuery = z.object({
  state: z.string().max(200).optional(),
  name: z.string().max(200).optional(),
});
