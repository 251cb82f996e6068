import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createCase,
  createCustomer,
  createProcess,
  createSubjectUser,
  type TestApp,
} from '../../../test/helpers.js';
import { jobActor } from '../../jobs/service-job.js';
import { runInTenant } from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import { caseDbsUpdateDetails } from '../case-data/case-data.table.js';
import { activitiesSubmitted } from '../checks/hooks.js';
import { flags } from '../flags/flags.table.js';
import { licenceDefinitions, licenceGroups, licenceSubGroups, licences } from './lms.table.js';

// A licensed driver's update service check reporting new information flags the licence to the
// licensing team (issue 32), through the real check engine and the update service simulator.

let t: TestApp;
let council: number;
let definition: number;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    council = (await createCustomer(tx, { name: 'Northgate Council' })).id;
    const [g] = await tx
      .insert(licenceGroups)
      .values({ customerId: council, name: 'Taxis' })
      .returning();
    const [s] = await tx
      .insert(licenceSubGroups)
      .values({ customerId: council, groupId: g?.id ?? 0, name: 'Drivers', code: 'HCD' })
      .returning();
    const [d] = await tx
      .insert(licenceDefinitions)
      .values({
        customerId: council,
        subGroupId: s?.id ?? 0,
        name: 'Driver',
        durationYears: 3,
        feePence: 0,
      })
      .returning();
    definition = d?.id ?? 0;
  });
});
afterAll(() => t.close());

/** A driver (licensed or not) whose six-monthly update service check answers for `certificate`. */
async function check(certificate: string, licensed: boolean) {
  const k = await t.owner(async (tx) => {
    const subject = await createSubjectUser(tx, { customerId: council, lastName: 'Smith' });
    if (licensed) {
      await tx.insert(licences).values({
        customerId: council,
        definitionId: definition,
        holderId: subject.id,
        number: `HCD/2026/${certificate.slice(-5)}`,
        issueDate: '2026-01-01',
        expiryDate: '2028-12-31',
      });
    }
    const p = await createProcess(tx, {
      customerId: council,
      requirements: [{ code: 'dbs-update', config: {} }],
    });
    const c = await createCase(tx, { customerId: council, processId: p.id, subjectId: subject.id });
    await tx.insert(caseDbsUpdateDetails).values({
      customerId: council,
      caseId: c.id,
      certificateNumber: certificate,
      surname: 'Smith',
      dob: '1990-01-01',
    });
    const acts = await tx.select().from(caseActivities).where(eq(caseActivities.caseId, c.id));
    return { caseId: c.id, ids: acts.map((a) => a.id) };
  });
  await runInTenant(t.app.deps, jobActor(council), (ctx) =>
    activitiesSubmitted(ctx, k.caseId, k.ids),
  );
  await t.settle();
  return t.owner((tx) =>
    tx
      .select()
      .from(flags)
      .where(and(eq(flags.customerId, council), eq(flags.caseId, k.caseId))),
  );
}

describe('the update service flags a licensed driver', () => {
  it('new information on a licence holder: a flag naming the licence', async () => {
    const found = await check('400000000011', true);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ kind: 'rule', active: true });
    expect(found[0]?.message).toMatch(/new information on certificate 400000000011/);
    expect(found[0]?.message).toMatch(/HCD\/2026\/00011/);
  });

  it('no new information, or nobody licensed: no flag', async () => {
    expect(await check('200000000012', true)).toHaveLength(0);
    expect(await check('400000000013', false)).toHaveLength(0);
  });
});
