import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { opsActorOf } from '../../platform/access.js';
import { parseBody } from '../../platform/query-params.js';
import { runInOps } from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import { readChecksConfig, realSettingsOf } from './config.js';
import { pollActivity } from './engine.js';
import { createCheckEngine, useCheckEngine } from './providers.js';
import { CHECK_PROVIDER_DEFINITIONS } from './registry.js';

/**
 * A test-only control of the simulated providers' clock, for the browser tests: with
 * `CHECKS_SIMULATOR_CONTROL=1` (never set in production; refused when a real provider is
 * configured), `POST /api/ops/checks/simulator/advance/ {activity, days}` (operations only) moves
 * the providers' clock on by `days` (simulated days) and asks the provider how that activity's application stands
 * now (the poll job's work, done at once), so a case moves through its stages over simulated days.
 */
export const SIMULATOR_CONTROL_ENV = 'CHECKS_SIMULATOR_CONTROL';

export const simulatorAdvanceIn = z.object({
  activity: z.number().int().positive(),
  days: z.number().min(0).max(60),
});

export function simulatorControlEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env[SIMULATOR_CONTROL_ENV] !== '1') return false;
  return CHECK_PROVIDER_DEFINITIONS.every((p) => realSettingsOf(env, p) === null);
}

export async function simulatorControlRoutes(app: FastifyInstance) {
  if (!simulatorControlEnabled()) return;
  const deps = app.deps;
  let offsetMs = 0;
  const providerClock = { now: () => new Date(deps.clock.now().getTime() + offsetMs) };
  const config = readChecksConfig(process.env, deps.secrets, deps.config.checksSimulatorDaySeconds);
  useCheckEngine(deps, createCheckEngine(deps, config, providerClock));
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/ops/checks/simulator/advance/',
    {
      schema: { tags: ['cases'], body: simulatorAdvanceIn },
      config: { access: { permissions: ['cases.change_caseactivity'] } },
    },
    async (request) => {
      const input = parseBody(simulatorAdvanceIn, request.body);
      // operations only (403 otherwise), checked in a transaction of its own
      const customerId = await runInOps(deps, opsActorOf(request), async ({ tx }) => {
        const [row] = await tx
          .select({ customerId: caseActivities.customerId })
          .from(caseActivities)
          .where(eq(caseActivities.id, input.activity));
        return row?.customerId ?? null;
      });
      offsetMs += input.days * config.simulatorDaySeconds * 1000;
      if (customerId !== null) {
        await pollActivity(deps, { case_activity_id: input.activity, customer_id: customerId });
      }
      return { provider_time: providerClock.now().toISOString(), found: customerId !== null };
    },
  );
}
