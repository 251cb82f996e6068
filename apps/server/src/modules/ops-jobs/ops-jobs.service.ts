import type { Database } from '../../db/connection.js';
import { QUEUE_SCHEMA } from '../../db/queue-schema.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { JOBS_CHANNEL } from '../../platform/jobs.js';

export const JOB_CT = 'jobs.job';
export const NOT_DEAD = 'Only a failed job can be retried or discarded.';

/** A job id as pg-boss makes them (a UUID); anything else is no job (404). */
export const isJobId = (id: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

async function findJob(db: Database, id: string, names: string[]) {
  if (!isJobId(id)) throw new NotFoundError();
  const { rows } = await db.ownerQuery(
    `select name, state from ${QUEUE_SCHEMA}.job where id = $1 and name = any($2::text[])`,
    [id, names],
  );
  const row = rows[0];
  if (!row) throw new NotFoundError();
  return { name: String(row.name), state: String(row.state) };
}

/**
 * Gives a dead job one more run now (pg-boss's own retry: one more attempt allowed, due at once)
 * and wakes the workers. The queue's tables are the owner's (docs/decisions/009-job-queue.md).
 * 404 for no such job, 400 for one that is not dead. Returns its name.
 */
export async function retryDeadJob(db: Database, id: string, names: string[]): Promise<string> {
  const job = await findJob(db, id, names);
  const { rows } = await db.ownerQuery(
    `with j as (
       update ${QUEUE_SCHEMA}.job set state = 'retry', retry_limit = retry_limit + 1,
         start_after = now(), completed_on = null
       where id = $1 and name = $2 and state = 'failed' returning name)
     select name, pg_notify($3, name) from j`,
    [id, job.name, JOBS_CHANNEL],
  );
  if (rows.length === 0) throw ValidationError.of('non_field_errors', NOT_DEAD);
  return job.name;
}

/** Discards a dead job: it is cancelled (kept until archived, never run). 404/400 as a retry. */
export async function discardDeadJob(db: Database, id: string, names: string[]): Promise<string> {
  const job = await findJob(db, id, names);
  const { rows } = await db.ownerQuery(
    `update ${QUEUE_SCHEMA}.job set state = 'cancelled', completed_on = now()
     where id = $1 and name = $2 and state = 'failed' returning name`,
    [id, job.name],
  );
  if (rows.length === 0) throw ValidationError.of('non_field_errors', NOT_DEAD);
  return job.name;
}
