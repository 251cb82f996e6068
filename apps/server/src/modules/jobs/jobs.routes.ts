import { jobOut, jobsQuery } from '@kestrel/domain';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/access.js';
import { iso } from '../../platform/clock.js';
import { ValidationError } from '../../platform/errors.js';
import { JOB_STATES, queueJobs } from '../../platform/jobs.js';
import { listQuerySchema, pageOf, pageSchema } from '../../platform/pagination.js';
import { pageResponse } from '../../platform/resource-query.js';
import { readOnly, runInOps } from '../../platform/service-context.js';
import { summariseJobData } from '../ops-jobs/job-summary.js';

const PATH = '/api/ops/jobs/';

const jobView = jobOut;

const isState = (v: string): v is (typeof JOB_STATES)[number] =>
  (JOB_STATES as readonly string[]).includes(v);

/** `?state=failed` or `failed,retry`; 400 for a state that does not exist. */
function stateFilter(raw: unknown): (typeof JOB_STATES)[number][] | undefined {
  if (raw === undefined || raw === '') return undefined;
  const list = String(raw).split(',');
  const states = list.filter(isState);
  const bad = list.find((s) => !isState(s));
  if (bad !== undefined) {
    throw ValidationError.invalidChoice('state', bad);
  }
  return states;
}

function errorOf(output: unknown): string | null {
  if (output && typeof output === 'object' && 'message' in output) {
    return typeof output.message === 'string' ? output.message : null;
  }
  return null;
}

/**
 * /api/ops/jobs/: the background jobs, newest first, for operations staff. `?state=failed` lists
 * the dead jobs (retries exhausted), `?name=` one kind. Payloads are not shown (an email's holds
 * a single-use link).
 */
export async function jobsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    PATH,
    {
      schema: {
        tags: ['ops'],
        querystring: listQuerySchema.extend(jobsQuery.shape),
        response: {
          200: pageSchema(jobView),
        },
      },
      config: { access: { permissions: ['customers.ops_access'] } },
    },
    async (request) => {
      const { page, pageSize } = pageOf(request.query);
      const states = stateFilter(request.query.state);
      const conds: SQL[] = [];
      if (states) conds.push(inArray(queueJobs.state, states));
      if (request.query.name) conds.push(eq(queueJobs.name, request.query.name));
      // pg-boss's own queues (its cron sender) are not the product's jobs.
      conds.push(inArray(queueJobs.name, app.deps.jobs.names()));
      const where = and(...conds);
      const { total, rows } = await runInOps(
        app.deps,
        actorOf(request),
        async ({ tx }) => {
          const [n] = await tx.select({ n: count() }).from(queueJobs).where(where);
          const list = await tx
            .select()
            .from(queueJobs)
            .where(where)
            .orderBy(desc(queueJobs.createdOn), desc(queueJobs.id))
            .limit(pageSize)
            .offset((page - 1) * pageSize);
          return { total: n?.n ?? 0, rows: list };
        },
        readOnly,
      );
      const results = rows.map((j) => ({
        id: j.id,
        name: j.name,
        state: j.state,
        retry_count: j.retryCount,
        retry_limit: j.retryLimit,
        created_on: j.createdOn.toISOString(),
        start_after: j.startAfter.toISOString(),
        started_on: iso(j.startedOn),
        completed_on: iso(j.completedOn),
        error: errorOf(j.output),
        data_summary: summariseJobData(j.data),
      }));
      return pageResponse(request, PATH, page, pageSize, total, results);
    },
  );
}
