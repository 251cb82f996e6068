import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { serviceJob } from '../../jobs/service-job.js';
import type { JobKind } from '../../platform/jobs.js';
import { checksCallbacksJob } from './callbacks.js';
import {
  type ActivityJob,
  initiateActivity,
  pollActivity,
  START_JOB,
  startActivity,
} from './engine.js';
import { hasOwnQueues, INITIATE_JOB, initiateJobName, POLL_JOB, pollJobName } from './kind.js';
import { kindEngine } from './kind-engine.js';
import { CHECK_KINDS, CHECK_PROVIDER_DEFINITIONS } from './registry.js';

const payload = z.object({
  case_activity_id: z.number().int().positive(),
  customer_id: z.number().int().positive(),
});

/*
 * The engine's jobs. Each opens its own transactions (read, then apply) around the provider
 * call, so no transaction waits on the network. The engine retries a failed start itself (with
 * back-off, recording each attempt on the activity), so the queue's own retry is only for a crash.
 */

/**
 * The queues of the starts and of the polls: the shared ones, and a provider's own where its
 * client keeps to the provider's rate (`workers`), with that many workers, so that different
 * providers' calls run side by side and a rate-limited one's wait for their places side by side
 * (its limiter keeps them within the rate and waits out a 429).
 */
const queues = [
  { start: INITIATE_JOB, poll: POLL_JOB, workers: 1 },
  ...CHECK_PROVIDER_DEFINITIONS.filter(hasOwnQueues).map((p) => ({
    start: initiateJobName(p),
    poll: pollJobName(p),
    workers: p.workers ?? 1,
  })),
];

/** Starts a submitted activity with its provider (and retries a failed start). */
export const checksInitiateJobs: readonly JobKind<ActivityJob, AppDeps>[] = queues.map((q) => ({
  name: q.start,
  payload,
  retry: { limit: 2, delaySeconds: 60, backoff: true },
  expireInSeconds: 120,
  workers: q.workers,
  handle: (data, deps) => initiateActivity(deps, data),
}));

/** Asks the provider how an application in progress stands (callbacks usually come first). */
export const checksPollJobs: readonly JobKind<ActivityJob, AppDeps>[] = queues.map((q) => ({
  name: q.poll,
  payload,
  retry: { limit: 2, delaySeconds: 300, backoff: true },
  expireInSeconds: 120,
  workers: q.workers,
  handle: (data, deps) => pollActivity(deps, data),
}));

/** Starts the activities a subject submitted (their submit's transaction may not write them). */
export const checksStartJob = serviceJob<{
  case_id: number;
  customer_id: number;
  case_activity_ids: number[];
}>({
  name: START_JOB,
  payload: z.object({
    case_id: z.number().int().positive(),
    customer_id: z.number().int().positive(),
    case_activity_ids: z.array(z.number().int().positive()).max(50),
  }),
  customerOf: (d) => d.customer_id,
  retry: { limit: 5, delaySeconds: 30, backoff: true },
  expireInSeconds: 60,
  handle: async (d, ctx) => {
    for (const id of d.case_activity_ids) await startActivity(ctx, id);
  },
});

/**
 * The engine's jobs, and those of the registered kinds' own: a job shared by kinds once; two
 * different jobs of one name (a kind's job named like the engine's) are refused.
 */
export const checkJobKinds = uniqueJobs([
  checksStartJob,
  ...checksInitiateJobs,
  ...checksPollJobs,
  checksCallbacksJob,
  ...Object.values(CHECK_KINDS).flatMap((k) => k.jobs?.(kindEngine) ?? []),
]);

export function uniqueJobs<J extends { name: string }>(jobs: readonly J[]): J[] {
  const byName = new Map<string, J>();
  for (const j of jobs) {
    const seen = byName.get(j.name);
    if (seen && seen !== j) throw new Error(`two check jobs named ${j.name}`);
    byName.set(j.name, j);
  }
  return [...byName.values()];
}
