import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileDb, type TxSettings } from '../db/connection.js';
import { ManualClock } from '../platform/clock.js';
import { systemActor } from '../platform/context.js';
import type { ContextDeps, ServiceContext } from '../platform/service-context.js';
import { serviceJob } from './service-job.js';

/** A database that records the settings of each transaction it opens. */
function fakeDeps() {
  const settings: TxSettings[] = [];
  const deps: ContextDeps = {
    clock: new ManualClock('2026-03-01T10:00:00Z'),
    db: {
      async transaction(s, fn) {
        settings.push(s);
        return fn(compileDb);
      },
    },
  };
  return { deps, settings };
}

describe('a job that runs in a service context', () => {
  const seen: ServiceContext[] = [];
  const base = {
    payload: z.object({ customer: z.number().int() }),
    retry: { limit: 0, delaySeconds: 0, backoff: false },
    expireInSeconds: 30,
    handle: async (_data: { customer: number }, ctx: ServiceContext) => {
      seen.push(ctx);
    },
  };

  it('runs a system job as the system, across tenants', async () => {
    const { deps, settings } = fakeDeps();
    const kind = serviceJob<{ customer: number }, ContextDeps>({ ...base, name: 'test-system' });
    await kind.handle({ customer: 4 }, deps);
    // the system's own role (kestrel_system), not the ops role's cross-tenant scope
    expect(settings).toEqual([{ scope: 'system', customerId: null }]);
    expect(seen.at(-1)?.actor).toEqual(systemActor);
    expect(seen.at(-1)?.clock).toBe(deps.clock);
  });

  it("runs a customer's job in the tenant its payload names", async () => {
    const { deps, settings } = fakeDeps();
    const kind = serviceJob<{ customer: number }, ContextDeps>({
      ...base,
      name: 'test-tenant',
      customerOf: (d) => d.customer,
    });
    await kind.handle({ customer: 4 }, deps);
    expect(settings).toEqual([
      { scope: 'tenant', customerId: 4, subjectId: null, userId: null, readOnly: false },
    ]);
    expect(seen.at(-1)?.actor).toMatchObject({ type: null, customerId: 4, isOps: false });
  });
});
