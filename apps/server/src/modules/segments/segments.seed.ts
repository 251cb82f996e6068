import { and, eq, inArray } from 'drizzle-orm';
import { createProductUser, createRole } from '../../db/factories.js';
import { DEMO_PASSWORD } from '../../db/seed.js';
import type { DemoSeedContext } from '../../platform/module.js';
import { processes } from '../processes/processes.table.js';
import { segments, segmentUsers } from './segments.table.js';

/** The demo user limited to the North site segment (printed at start: db/seed.ts DEMO_LOGINS). */
export const DEMO_SEGMENT_USER = 'north.site@acme.test';

/**
 * Acme Care Ltd's sites: North (the care workers' process) and South (the office staff's), a
 * third with nothing yet, and a coordinator limited to the North site who sees only its cases.
 */
export async function seedSegmentsDemo(ctx: DemoSeedContext): Promise<void> {
  const { tx } = ctx;
  const customerId = ctx.customers.acme;
  const [north, south] = await tx
    .insert(segments)
    .values([
      {
        customerId,
        name: 'North site',
        employerName: 'Acme Care North Ltd',
        lineOne: '12 Moor Road',
        town: 'Leeds',
        postcode: 'LS6 2AA',
        contactName: 'Nia Hughes',
        contactEmail: 'north@acme-care.test',
        contactPhone: '+447700900101',
      },
      {
        customerId,
        name: 'South site',
        employerName: 'Acme Care South Ltd',
        lineOne: '3 Harbour Street',
        town: 'Brighton',
        postcode: 'BN1 1AA',
        contactName: 'Sol Patel',
        contactEmail: 'south@acme-care.test',
        contactPhone: '+447700900102',
      },
      { customerId, name: 'Head office', employerName: 'Acme Care Ltd', town: 'York' },
    ])
    .returning();
  if (!north || !south) throw new Error('demo segments not made');
  const assign = async (segmentId: number, names: string[]) =>
    tx
      .update(processes)
      .set({ segmentId })
      .where(and(eq(processes.customerId, customerId), inArray(processes.name, names)));
  await assign(north.id, ['Care worker onboarding']);
  await assign(south.id, ['Office staff']);
  const role = await createRole(tx, {
    customerId,
    name: 'Site coordinator',
    permissions: [
      'cases.view_case',
      'cases.add_case',
      'cases.view_caseactivity',
      'subjects.view_subject',
      'subjects.add_subject',
      'processes.view_process',
      'flags.view_flag',
      'segments.view_segment',
    ],
  });
  const user = await createProductUser(tx, {
    customerId,
    username: DEMO_SEGMENT_USER,
    firstName: 'Nia',
    lastName: 'Hughes',
    jobTitle: 'North site coordinator',
    password: DEMO_PASSWORD,
    roles: [role.id],
  });
  await tx.insert(segmentUsers).values({ customerId, segmentId: north.id, userId: user.id });
}
