import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { serviceJob } from '../../jobs/service-job.js';
import type { JobKind } from '../../platform/jobs.js';
import { checksCallbacksJob } from './callbacks.js';
import {
  type ActivityJob,
  initiateActivity,
  POLL_JOB,
  pollActivity,
  START_JOB,
  startActivity,
} from './engine.js';
import { initiateJobName } from './kind.js';
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
 * Starts a submitted activity with its provider (and retries a failed start): a queue per
 * provider, so that different providers' starts run side by side, each provider's with as many
 * workers as its entry allows (`startWorkers`: a rate-limited client keeps their calls within
 * the provider's rate, waiting for its places and waiting out a 429).
 */
export const checksInitiateJobs: readonly JobKind<ActivityJob, AppDeps>[] =
  CHECK_PROVIDER_DEFINITIONS.map((p) => ({
    name: initiateJobName(p.name),
    payload,
    retry: { limit: 2, delaySeconds: 60, backoff: true },
    expireInSeconds: 120,
    ...(p.startWorkers ? { workers: p.startWorkers } : {}),
    handle: (data, deps) => initiateActivity(deps, data),
  }));

/** Asks the provider how an application in progress stands (callbacks usually come first). */
export const checksPollJob: JobKind<ActivityJob, AppDeps> = {
  name: POLL_JOB,
  payload,
  retry: { limit: 2, delaySeconds: 300, backoff: true },
  expireInSeconds: 120,
  handle: (data, deps) => pollActivity(deps, data),
};

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
  checksPollJob,
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
