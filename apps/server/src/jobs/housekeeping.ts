import { z } from 'zod';
import type { AppDeps } from '../app-deps.js';
import { refreshStatistics } from '../db/statistics.js';
import { housekeep } from '../platform/housekeeping.js';
import type { JobKind } from '../platform/jobs.js';
import { serviceJob } from './service-job.js';

/**
 * A cron expression running every `everyMs` (rounded to whole minutes, at least one; hourly
 * steps from an hour up), or null for 0 (never).
 */
export function cronEvery(everyMs: number): string | null {
  if (everyMs <= 0) return null;
  const minutes = Math.max(1, Math.round(everyMs / 60_000));
  if (minutes < 60) return minutes === 1 ? '* * * * *' : `*/${minutes} * * * *`;
  const hours = Math.min(24, Math.round(minutes / 60));
  return hours === 1 ? '0 * * * *' : `0 */${hours} * * *`;
}

/**
 * Deletes expired sessions, closed rate-limit windows and spent tokens, on the schedule of
 * HOUSEKEEPING_MS: one run per period across every server process (the queue's schedule).
 */
export const housekeepingJob = serviceJob<Record<string, never>>({
  name: 'housekeeping',
  payload: z.object({}).strict(),
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 600,
  cron: (deps) => cronEvery(deps.config.housekeepingMs),
  handle: (_data, ctx, deps) => housekeep(ctx, deps.config),
});

/**
 * The planner's statistics on the embedded database (which runs no autovacuum), refreshed on the
 * housekeeping schedule; on PostgreSQL autovacuum does it and the job is not scheduled.
 */
export const statisticsJob: JobKind<Record<string, never>, AppDeps> = {
  name: 'statistics',
  payload: z.object({}).strict(),
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 600,
  cron: (deps) => (deps.db.kind === 'pglite' ? cronEvery(deps.config.housekeepingMs) : null),
  handle: (_data, deps) => refreshStatistics(deps.db),
};
