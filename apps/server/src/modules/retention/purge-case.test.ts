import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCustomer, type TestApp } from '../../../test/helpers.js';
import { jobActor } from '../../jobs/service-job.js';
import { runInTenant } from '../../platform/service-context.js';
import { caseOnlineIdv } from '../online-idv/online-idv.table.js';
import { createRetentionCase } from './retention.fixtures.js';
import { purgeCase } from './retention.service.js';
import { retentionRedactions } from './retention.table.js';

// Issue 34 (review R2): a closed case's purge also removes the online identity check's profile
// of the person (names, date of birth, address) and its identity session, as an erasure does.

const DAY = 86_400_000;
let t: TestApp;
let acme: number;

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  acme = await t.owner(async (tx) => (await createCustomer(tx, { name: 'Acme' })).id);
});
afterAll(() => t.close());

describe('purging a closed case', () => {
  it("removes the online identity check's profile and session, keeping its row", async () => {
    // the app's clock far from the database's: what the purge writes is dated by the app's
    t.clock.advance(400 * DAY);
    const start = t.clock.now();
    const c = await t.owner((tx) =>
      createRetentionCase(tx, t.app.deps.storage, {
        customerId: acme,
        firstName: 'Ivy',
        lastName: 'Profiled',
        completedAt: start,
        state: 'cancelled',
      }),
    );
    await t.owner((tx) =>
      tx.insert(caseOnlineIdv).values({
        customerId: acme,
        caseId: c.caseId,
        provider: 'yoti',
        session: `purge-idv-${c.caseId}`,
        sessionUrl: 'https://idv.example.test/session',
        status: 'passed',
        ibvVerified: true,
        ibvSession: `ibv-${c.caseId}`,
        idProfile: {
          given_names: 'Ivy',
          family_name: 'Profiled',
          date_of_birth: '1984-05-06',
          address: '4 Purge Lane, York, YO1 7HH',
        },
        startedAt: start,
        completedAt: start,
      }),
    );
    const purged = await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
      purgeCase(ctx, t.app.deps.storage, {
        customerId: acme,
        id: c.caseId,
        subjectId: c.subjectId,
      }),
    );
    expect(purged).toBe(true);
    const [idv] = await t.owner((tx) =>
      tx
        .select()
        .from(caseOnlineIdv)
        .where(and(eq(caseOnlineIdv.customerId, acme), eq(caseOnlineIdv.caseId, c.caseId))),
    );
    expect(idv).toMatchObject({
      idProfile: null,
      ibvSession: null,
      status: 'passed',
      ibvVerified: true,
      updatedAt: start,
    });
    expect(JSON.stringify(idv)).not.toMatch(/Profiled|Purge Lane|1984-05-06/);
    const [record] = await t.owner((tx) =>
      tx
        .select({ removed: retentionRedactions.removed, at: retentionRedactions.redactedAt })
        .from(retentionRedactions)
        .where(
          and(
            eq(retentionRedactions.customerId, acme),
            eq(retentionRedactions.target, 'case'),
            eq(retentionRedactions.targetId, c.caseId),
          ),
        ),
    );
    expect(record?.removed).toContain('case_online_idv');
    expect(record?.at).toEqual(start);
  });
});
