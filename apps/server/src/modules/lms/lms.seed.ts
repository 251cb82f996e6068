import {
  DEFAULT_LICENCE_NUMBER_FORMAT,
  formatLicenceNumber,
  licenceExpiryDate,
} from '@kestrel/domain';
import { createSubjectUser } from '../../db/factories.js';
import type { DemoSeedContext } from '../../platform/module.js';
import {
  licenceDefinitions,
  licenceEvents,
  licenceGroups,
  licenceSubGroups,
  licences,
  lmsApplicationPortals,
} from './lms.table.js';

const DAY = 86_400_000;

/**
 * Northgate Council's licensing (issue 32): 'Taxi and private hire' with its drivers, operators
 * and vehicles, the driver licences' requirements (the statutory standards: enhanced DBS with the
 * update service, driver data, right to work, the knowledge test), open portals for new drivers,
 * a draft group not yet published, and licences held by four drivers in each status a licensing
 * officer meets (active, suspended, revoked, expired), each with its trail.
 */
export async function seedLmsDemo({ tx, clock, customers }: DemoSeedContext): Promise<void> {
  const customerId = customers.northgate;
  const now = clock.now();
  const [taxis, trading] = await tx
    .insert(licenceGroups)
    .values([
      {
        customerId,
        name: 'Taxi and private hire',
        description: 'Hackney carriage and private hire drivers, operators and vehicles.',
        isPublished: true,
      },
      {
        customerId,
        name: 'Street trading',
        description: 'Consents and licences to trade on the street (not yet open).',
        isPublished: false,
      },
    ])
    .returning();
  if (!taxis || !trading) throw new Error('demo licence groups not made');
  const subs = await tx
    .insert(licenceSubGroups)
    .values(
      [
        ['Hackney carriage driver', 'HCD', true],
        ['Private hire driver', 'PHD', true],
        ['Private hire operator', 'PHO', true],
        ['Vehicle', 'VEH', false],
      ].map(([name, code, published]) => ({
        customerId,
        groupId: taxis.id,
        name: String(name),
        code: String(code),
        isPublished: Boolean(published),
      })),
    )
    .returning();
  const [hcd, phd, pho] = subs;
  if (!hcd || !phd || !pho) throw new Error('demo licence sub-groups not made');
  const driverChecks = [
    { activity_type: 'dbs-enhanced', config: {} },
    { activity_type: 'dbs-update', config: {} },
    { activity_type: 'driver-data', config: {} },
    { activity_type: 'rtw', config: {} },
    { activity_type: 'knowledge-test', config: {} },
  ];
  const documents = ['Group 2 medical certificate', 'Two passport photographs'];
  const declarations = [
    "I have read the council's policy on relevant convictions.",
    'I will tell the council of any conviction, caution or arrest within 48 hours.',
  ];
  const definitions = await tx
    .insert(licenceDefinitions)
    .values([
      {
        customerId,
        subGroupId: hcd.id,
        name: 'Hackney carriage driver licence (3 years)',
        durationYears: 3,
        feePence: 27_500,
        requirements: driverChecks,
        documents,
        declarations,
        isPublished: true,
      },
      {
        customerId,
        subGroupId: phd.id,
        name: 'Private hire driver licence (3 years)',
        durationYears: 3,
        feePence: 26_000,
        requirements: driverChecks,
        documents,
        declarations,
        isPublished: true,
      },
      {
        customerId,
        subGroupId: pho.id,
        name: 'Private hire operator licence (5 years)',
        durationYears: 5,
        feePence: 54_000,
        requirements: [{ activity_type: 'dbs-basic', config: {} }],
        documents: ['Public liability insurance certificate'],
        declarations: ['I will keep records of every booking for 12 months.'],
        isPublished: true,
      },
    ])
    .returning();
  const [hcdLicence, phdLicence, phoLicence] = definitions;
  if (!hcdLicence || !phdLicence || !phoLicence) throw new Error('demo definitions not made');
  await tx.insert(lmsApplicationPortals).values([
    {
      customerId,
      definitionId: hcdLicence.id,
      title: 'Apply for a hackney carriage driver licence',
      introduction:
        'For new drivers. You will need your driving licence, passport and a Group 2 medical.',
      isOpen: true,
      kind: 'new',
      feePence: 27_500,
    },
    {
      customerId,
      definitionId: phdLicence.id,
      title: 'Apply for a private hire driver licence',
      introduction: 'For new drivers working for a Northgate private hire operator.',
      isOpen: true,
      kind: 'new',
      feePence: 26_000,
    },
    {
      customerId,
      definitionId: hcdLicence.id,
      title: 'Renew a hackney carriage driver licence',
      introduction: 'Renewals open eight weeks before a licence expires.',
      isOpen: false,
      kind: 'renewal',
      feePence: 22_000,
    },
    {
      customerId,
      definitionId: phoLicence.id,
      title: 'Apply for a private hire operator licence',
      introduction: 'For businesses taking private hire bookings in Northgate.',
      isOpen: true,
      kind: 'new',
      feePence: 54_000,
    },
  ]);
  const drivers = [
    ['Daniel', 'Okafor', hcdLicence, 'active', 400],
    ['Priya', 'Shah', phdLicence, 'suspended', 200],
    ['Tom', 'Walsh', hcdLicence, 'revoked', 700],
    ['Ewa', 'Nowak', phdLicence, 'expired', 1200],
  ] as const;
  let sequence = 0;
  for (const [first, last, definition, status, daysAgo] of drivers) {
    const holder = await createSubjectUser(tx, {
      customerId,
      email: `${first.toLowerCase()}.${last.toLowerCase()}@drivers.example.test`,
      firstName: first,
      lastName: last,
      password: null,
    });
    sequence += 1;
    const issued = new Date(now.getTime() - daysAgo * DAY);
    const issueDate = issued.toISOString().slice(0, 10);
    const code = definition.id === hcdLicence.id ? hcd.code : phd.code;
    const expiryDate = licenceExpiryDate(issueDate, definition.durationYears);
    // suspended or revoked a month ago; an expired licence changed on its expiry date
    const changed =
      status === 'expired'
        ? new Date(`${expiryDate}T00:00:00Z`)
        : new Date(now.getTime() - 30 * DAY);
    const [licence] = await tx
      .insert(licences)
      .values({
        customerId,
        definitionId: definition.id,
        holderId: holder.id,
        number: formatLicenceNumber(DEFAULT_LICENCE_NUMBER_FORMAT, {
          year: issued.getUTCFullYear(),
          code,
          sequence,
        }),
        sequence,
        status,
        issueDate,
        expiryDate,
        conditions: status === 'active' ? 'Display the driver badge at all times.' : '',
        statusChangedAt: status === 'active' ? issued : changed,
        createdAt: issued,
        updatedAt: status === 'active' ? issued : changed,
      })
      .returning();
    if (!licence) throw new Error('demo licence not made');
    const trail: (typeof licenceEvents.$inferInsert)[] = [
      {
        customerId,
        licenceId: licence.id,
        action: 'issue',
        fromStatus: null,
        toStatus: 'active',
        actorName: 'Nadia North',
        createdAt: issued,
      },
    ];
    if (status === 'suspended' || status === 'revoked') {
      trail.push({
        customerId,
        licenceId: licence.id,
        action: status === 'suspended' ? 'suspend' : 'revoke',
        fromStatus: 'active',
        toStatus: status,
        reason:
          status === 'suspended'
            ? 'Awaiting the outcome of a passenger complaint.'
            : 'Conviction for a relevant offence (council policy 4.2).',
        actorName: 'Nadia North',
        createdAt: changed,
      });
    }
    await tx.insert(licenceEvents).values(trail);
  }
}
