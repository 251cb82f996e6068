import {
  caseRetentionOut,
  dueRedactionsOut,
  employmentEndIn,
  legalHoldIn,
  presentRetentionSettings,
  RETENTION_LOOKAHEAD_DAYS,
  retentionSettingsIn,
  retentionSettingsOut,
} from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SEED_ROLE } from '../../db/connection.js';
import { actorOf } from '../../platform/access.js';
import type { Actor } from '../../platform/context.js';
import { NotFoundError } from '../../platform/errors.js';
import { parseId } from '../../platform/resource-query.js';
import { readOnly, runInTenant } from '../../platform/service-context.js';
import { e2eFixturesEnabled } from '../e2e-fixtures/e2e-fixtures.routes.js';
import { createRetentionCase } from './retention.fixtures.js';
import {
  findDue,
  getCaseRetention,
  getSettings,
  presentDue,
  putSettings,
  setEmploymentEnd,
  setLegalHold,
} from './retention.service.js';
import { runRetentionDue } from './retention-job.js';

const tags = ['retention'];
const idParams = z.object({ id: z.string().max(20) });
const VIEW = ['customers.view_customer'] as const;
const CHANGE = ['customers.view_customer', 'customers.change_customer'] as const;

/** POST {customer, at}: the retention job for one customer as if it were `at` (test-only). */
export const RETENTION_DUE_PATH = '/api/test-fixtures/retention-due/';
const dueIn = z.object({ customer: z.number().int().positive(), at: z.iso.datetime() });
/** POST {customer}: a case completed now with a DBS result and two stored documents (test-only). */
export const RETENTION_CASE_PATH = '/api/test-fixtures/retention-case/';
const caseIn = z.object({ customer: z.number().int().positive() });

function customerOf(actor: Actor): number {
  if (actor.customerId === null) throw new NotFoundError();
  return actor.customerId;
}

/**
 * Retention and automatic redaction (issue 34): a customer's rules (its administrator edits
 * them), what falls due in the next 30 days, and a case's legal hold, end of employment and
 * redactions.
 */
export async function retentionRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;

  r.get(
    '/api/customer-account/retention/',
    {
      schema: { tags, response: { 200: retentionSettingsOut } },
      config: { access: { permissions: [...VIEW] } },
    },
    async (request) => {
      const actor = actorOf(request);
      const customerId = customerOf(actor);
      const s = await runInTenant(deps, actor, ({ tx }) => getSettings(tx, customerId), readOnly);
      return presentRetentionSettings(s);
    },
  );

  r.put(
    '/api/customer-account/retention/',
    {
      schema: { tags, body: retentionSettingsIn, response: { 200: retentionSettingsOut } },
      config: { access: { permissions: [...CHANGE] } },
    },
    async (request) => {
      const actor = actorOf(request);
      const customerId = customerOf(actor);
      const s = await runInTenant(deps, actor, (ctx) => putSettings(ctx, customerId, request.body));
      return presentRetentionSettings(s);
    },
  );

  r.get(
    '/api/customer-account/retention/due/',
    {
      schema: { tags, response: { 200: dueRedactionsOut } },
      config: { access: { permissions: [...VIEW, 'cases.view_case'] } },
    },
    async (request) => {
      const actor = actorOf(request);
      const customerId = customerOf(actor);
      return runInTenant(
        deps,
        actor,
        async ({ tx, clock }) => {
          const horizon = new Date(clock.now().getTime() + RETENTION_LOOKAHEAD_DAYS * 86_400_000);
          const items = await findDue(tx, customerId, await getSettings(tx, customerId), horizon);
          return { results: presentDue(items) };
        },
        readOnly,
      );
    },
  );

  r.get(
    '/api/cases/:id/retention/',
    {
      schema: { tags, params: idParams, response: { 200: caseRetentionOut } },
      config: { access: { permissions: ['cases.view_case'] } },
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInTenant(deps, actorOf(request), ({ tx }) => getCaseRetention(tx, id), readOnly);
    },
  );

  for (const [path, hold] of [
    ['/api/cases/:id/legal-hold/', true],
    ['/api/cases/:id/legal-hold/lift/', false],
  ] as const) {
    r.post(
      path,
      {
        schema: { tags, params: idParams, body: legalHoldIn, response: { 200: caseRetentionOut } },
        config: { access: { permissions: ['cases.view_case', 'cases.change_case'] } },
      },
      async (request) => {
        const id = parseId(request.params.id);
        return runInTenant(deps, actorOf(request), (ctx) =>
          setLegalHold(ctx, id, hold, request.body.reason),
        );
      },
    );
  }

  r.put(
    '/api/cases/:id/employment-end/',
    {
      schema: {
        tags,
        params: idParams,
        body: employmentEndIn,
        response: { 200: caseRetentionOut },
      },
      config: { access: { permissions: ['cases.view_case', 'cases.change_case'] } },
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInTenant(deps, actorOf(request), (ctx) =>
        setEmploymentEnd(ctx, id, request.body.employment_ended_on),
      );
    },
  );

  if (!e2eFixturesEnabled()) return;
  r.post(
    RETENTION_CASE_PATH,
    {
      schema: { hide: true, body: caseIn },
      config: { access: { audience: 'public' } },
    },
    async (request) =>
      deps.db.ownerTransaction(async (tx) => {
        // as the demo seed writes (the owner's role, no serving role's grants)
        await tx.execute(sql.raw(`SET LOCAL ROLE ${SEED_ROLE}`));
        return createRetentionCase(tx, deps.storage, {
          customerId: request.body.customer,
          firstName: 'Robin',
          lastName: 'Lane',
          completedAt: deps.clock.now(),
        });
      }),
  );
  r.post(
    RETENTION_DUE_PATH,
    {
      schema: { hide: true, body: dueIn },
      config: { access: { audience: 'public' } },
    },
    async (request) => {
      const at = new Date(request.body.at);
      const { redacted, failed } = await runRetentionDue(
        { ...deps, clock: { now: () => at } },
        request.body.customer,
      );
      return { redacted, failed };
    },
  );
}
