// @postgres: reference data synchronised by the migration through the owner's PostgreSQL connection

import { ACTIVITY_KIND_CODES } from '@kestrel/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, createCustomer, createProcess, type TestApp } from '../../test/helpers.js';
import { activityTypes } from '../modules/bootstrap/bootstrap.table.js';
import { processRequirements } from '../modules/processes/processes.table.js';
import { ACTIVITY_TYPES, syncReferenceData } from './reference-data.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

it('activity types are exactly the domain registry', async () => {
  expect(ACTIVITY_TYPES.map((a) => a.code)).toEqual(ACTIVITY_KIND_CODES);
  const codes = await t.owner((tx) => tx.select({ code: activityTypes.code }).from(activityTypes));
  expect(codes.map((c) => c.code).sort()).toEqual([...ACTIVITY_KIND_CODES].sort());
});

it('moves rows of old codes (right-to-work, idv) to the registry codes and drops the old types', async () => {
  const processId = await t.owner(async (tx) => {
    const c = await createCustomer(tx, { activityTypes: ['basic-details'] });
    const [old] = await tx
      .insert(activityTypes)
      .values({ code: 'right-to-work', name: 'Right to work', kind: 'rtw' })
      .returning();
    await tx.execute(
      sql`insert into customer_activity_types (customer_id, activity_type_id) values (${c.id}, ${old?.id})`,
    );
    const p = await createProcess(tx, { customerId: c.id, requirements: ['basic-details'] });
    await tx
      .insert(processRequirements)
      .values({ customerId: c.id, processId: p.id, activityTypeId: old?.id ?? 0, position: 1 });
    await syncReferenceData(tx);
    return p.id;
  });
  const after = await t.owner(async (tx) => ({
    codes: (await tx.select({ code: activityTypes.code }).from(activityTypes)).map((c) => c.code),
    reqs: await tx
      .select({ code: activityTypes.code })
      .from(processRequirements)
      .innerJoin(activityTypes, eq(activityTypes.id, processRequirements.activityTypeId))
      .where(eq(processRequirements.processId, processId))
      .orderBy(processRequirements.position),
    enabled: await tx.execute<{ code: string }>(sql`
      select a.code from customer_activity_types cat join activity_types a on a.id = cat.activity_type_id
      where cat.customer_id = (select customer_id from processes where id = ${processId}) order by a.code`),
  }));
  expect(after.codes).not.toContain('right-to-work');
  expect(after.reqs.map((r) => r.code)).toEqual(['basic-details', 'rtw']);
  expect([...after.enabled].map((r) => r.code)).toEqual(['basic-details', 'rtw']);
});
