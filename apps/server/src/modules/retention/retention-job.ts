import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { jobActor } from '../../jobs/service-job.js';
import { type JobKind, jobOf } from '../../platform/jobs.js';
import { readOnly, runAsSystem, runInTenant } from '../../platform/service-context.js';
import { customers } from '../customers/customers.table.js';
import { expireAccessLog, expireInstallationRecords } from './expiry.js';
import { SCRUB_WINDOW_MS, scrubRedactedAuditCopies } from './redacted-copies.js';
import { findDue, getSettings, redactDueItem } from './retention.service.js';

/**
 * Applies every customer's retention rules (issue 34): the system lists the customers, then for
 * each its due items are found in its own tenant (RLS) and each is redacted in its own
 * transaction as the customer's job actor: the item's row locked with skip locked, its redaction
 * recorded under a unique key (so two processes, or a run after a failure, redact it once), and
 * nothing redacted on a case under a legal hold. `customerId` limits the run to one customer (the
 * e2e fixture). Then the audit log's copies of the redacted results are scrubbed
 * (redacted-copies.ts) and the customer's access log past its period removed; a full run (no
 * `customerId`) also expires the outbox's messages and the queue's archived payloads (expiry.ts). Returns how many items were redacted, how many failed (tried again next
 * run) and the failures' errors (the job fails with them, so pg-boss retries it and the log says
 * why).
 */
export async function runRetentionDue(
  deps: Pick<AppDeps, 'db' | 'clock' | 'storage'>,
  customerId?: number,
): Promise<{ redacted: number; failed: number; errors: Error[] }> {
  const now = deps.clock.now();
  const ids =
    customerId === undefined
      ? (await runAsSystem(deps, ({ tx }) => tx.select({ id: customers.id }).from(customers))).map(
          (c) => c.id,
        )
      : [customerId];
  let redacted = 0;
  const errors: Error[] = [];
  const failure = (what: string, err: unknown) =>
    errors.push(
      new Error(`${what}: ${err instanceof Error ? err.message : String(err)}`, { cause: err }),
    );
  for (const id of ids) {
    const actor = jobActor(id);
    const due = await runInTenant(
      deps,
      actor,
      async ({ tx }) => findDue(tx, id, await getSettings(tx, id), now),
      readOnly,
    );
    for (const item of due) {
      // one item's failure (the store unreachable) rolls back that item only: the next run retries
      try {
        if (await runInTenant(deps, actor, (ctx) => redactDueItem(ctx, deps.storage, item))) {
          redacted += 1;
        }
      } catch (err) {
        failure(`customer ${id}: redacting ${item.target} ${item.targetId}`, err);
      }
    }
    // the audit log's copies of what was redacted (this run's, an erasure's, a failed run's)
    try {
      await scrubRedactedAuditCopies(deps.db, id, {
        since: new Date(now.getTime() - SCRUB_WINDOW_MS),
      });
    } catch (err) {
      // not swallowed: the job fails (and is retried) with it
      failure(`customer ${id}: scrubbing the audit copies`, err);
    }
    // the access log past its period (expiry.ts)
    try {
      await expireAccessLog(deps.db, id, now);
    } catch (err) {
      failure(`customer ${id}: expiring the access log`, err);
    }
  }
  // the outbox's messages and the queue's archived payloads: no customer's, on a full run only
  if (customerId === undefined) {
    try {
      await expireInstallationRecords(deps.db, now);
    } catch (err) {
      failure('expiring outbox messages and job payloads', err);
    }
  }
  return { redacted, failed: errors.length, errors };
}

const payload = z
  .object({
    /** An erasure's copies only (erasureScrubJob): no rule applied. */
    erased: z.object({
      customer: z.number().int().positive(),
      subject: z.number().int().positive(),
    }),
  })
  .strict()
  .partial();
type Payload = z.infer<typeof payload>;

/**
 * The queue's schedule of runRetentionDue: hourly, one run per period across the processes. A job
 * with `erased` (erasureScrubJob, enqueued by an erasure in its transaction) scrubs only the
 * audit and callback copies of that erased subject's data, at once (redacted-copies.ts).
 */
export const retentionDueJob: JobKind<Payload, AppDeps> = {
  name: 'retention-due',
  payload,
  retry: { limit: 2, delaySeconds: 60, backoff: true },
  expireInSeconds: 3600,
  cron: () => '23 * * * *',
  handle: async (data, deps) => {
    if (data.erased) {
      await scrubRedactedAuditCopies(deps.db, data.erased.customer, {
        subjectId: data.erased.subject,
      });
      return;
    }
    const { errors } = await runRetentionDue(deps);
    if (errors.length > 0) {
      throw new AggregateError(
        errors,
        `${errors.length} retention step(s) failed, retried: ${errors.map((e) => e.message).join('; ')}`,
      );
    }
  },
};

/**
 * The job that scrubs the audit log's and the callback inbox's copies of subject `subject`'s
 * erased data (issue 34): `await ctx.enqueue(erasureScrubJob(customer, subject))` in the
 * erasure's transaction, so it commits (and runs) with the erasure or not at all.
 */
export const erasureScrubJob = (customer: number, subject: number) =>
  jobOf(retentionDueJob, { erased: { customer, subject } });
