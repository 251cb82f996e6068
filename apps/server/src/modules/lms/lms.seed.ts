import {
  DBS_CHECK_CODES,
  DEFAULT_LICENCE_NUMBER_FORMAT,
  formatLicenceNumber,
  isResultDataKind,
  licenceExpiryDate,
} from '@kestrel/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { readConfig } from '../../config.js';
import { createSubjectUser } from '../../db/factories.js';
import type { Actor } from '../../platform/context.js';
import { enqueue } from '../../platform/jobs.js';
import type { DemoSeedContext } from '../../platform/module.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { caseDbsUpdateDetails } from '../case-data/case-data.table.js';
import { cases } from '../cases/cases.table.js';
import { seedDisclosureResults } from '../checks/disclosure/demo-results.js';
import { insertSubject } from '../subjects/subjects.service.js';
import { subjects } from '../subjects/subjects.table.js';
import { subjectUsers } from '../users/users.table.js';
import {
  licenceDefinitions,
  licenceEvents,
  licenceGroups,
  licenceSubGroups,
  licences,
  lmsApplicationPortals,
} from './lms.table.js';
import { applicationPaid, refuseApplication, requestInfo } from './lms-applications.service.js';
import { lmsApplicationEvents, lmsApplications } from './lms-applications.table.js';
import { cycleCustomer } from './update-service-cycles-job.js';

const DAY = 86_400_000;

/**
 * Northgate Council's licensing (issue 32): 'Taxi and private hire' with its drivers, operators
 * and vehicles, the driver licences' requirements (the statutory standards: enhanced DBS with the
 * update service, driver data, right to work, the knowledge test), open portals for new drivers,
 * a draft group not yet published, and licences held by four drivers in each status a licensing
 * officer meets (active, suspended, revoked, expired), each with its trail.
 */
export async function seedLmsDemo(ctx: DemoSeedContext): Promise<void> {
  const { tx, clock, customers } = ctx;
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
  // the enhanced check as a council asks it of its drivers (its settings, issue 32)
  const driverChecks = [
    {
      activity_type: 'dbs-enhanced',
      config: {
        purpose: 'licence' as const,
        employment_sector: 'taxi-private-hire' as const,
        position: 'Licensed driver',
      },
    },
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
  const portals = await tx
    .insert(lmsApplicationPortals)
    .values([
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
        introduction:
          'For Northgate hackney carriage drivers renewing before their licence expires. You will need your HMRC tax check code.',
        isOpen: true,
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
    ])
    .returning();
  const drivers = [
    ['Daniel', 'Okafor', hcdLicence, 'active', 400],
    ['Priya', 'Shah', phdLicence, 'suspended', 200],
    ['Tom', 'Walsh', hcdLicence, 'revoked', 700],
    ['Ewa', 'Nowak', phdLicence, 'expired', 1200],
  ] as const;
  let sequence = 0;
  const holders: Holders = {};
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
    holders[`${first} ${last}`] = { subject: holder.id, licence: licence.id, issued };
  }
  const [hcdPortal, phdPortal] = portals;
  if (!hcdPortal || !phdPortal) throw new Error('demo portals not made');
  await seedApplications(ctx, { hcd: hcdPortal, phd: phdPortal }, holders);
}

type PortalRow = typeof lmsApplicationPortals.$inferSelect;
type Holders = Record<string, { subject: number; licence: number; issued: Date }>;

/**
 * Northgate's applications (issue 32), through the services the API uses: the demo subject
 * (subject@example.test, Acme's subject, now Northgate's too) with one in progress, and others
 * awaiting payment, asked for more information, granted (the active licence's) and refused (a
 * driver whose licence was revoked re-applying: the register shows both).
 */
async function seedApplications(
  ctx: DemoSeedContext,
  portals: { hcd: PortalRow; phd: PortalRow },
  holders: Holders,
): Promise<void> {
  const { tx, clock } = ctx;
  const customerId = ctx.customers.northgate;
  const actor: Actor = {
    type: null,
    id: null,
    name: 'Nadia North',
    customerId,
    isOps: false,
    permissions: new Set(),
    ip: null,
    requestId: null,
  };
  const service: ServiceContext = {
    tx,
    actor,
    clock,
    enqueue: async (job) => void (await enqueue(tx, job)),
    afterCommit: () => undefined,
  };
  const mail = { publicUrl: readConfig(process.env, process.cwd()).publicUrl };
  const person = async (first: string, last: string, dob: string) =>
    (
      await createSubjectUser(tx, {
        customerId,
        email: `${first.toLowerCase()}.${last.toLowerCase()}@applicants.example.test`,
        firstName: first,
        lastName: last,
        dob,
        password: null,
      })
    ).id;
  const apply = async (subjectId: number, portal: PortalRow, daysAgo: number, paid: boolean) => {
    const at = new Date(clock.now().getTime() - daysAgo * DAY);
    const [app] = await tx
      .insert(lmsApplications)
      .values({
        customerId,
        portalId: portal.id,
        definitionId: portal.definitionId,
        subjectId,
        kind: portal.kind,
        state: 'awaiting_payment',
        feePence: portal.feePence,
        taxCheckNeed: 'confirm',
        taxResponsibilitiesConfirmed: true,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    if (!app) throw new Error('demo application not made');
    await tx.insert(lmsApplicationEvents).values({
      customerId,
      applicationId: app.id,
      action: 'apply',
      toState: 'awaiting_payment',
      actorName: 'Applicant',
      createdAt: at,
    });
    if (paid) await applicationPaid(service, mail, app.id, 'Paid online.');
    return app.id;
  };

  // the demo subject: Acme's subject, applying to Northgate (its record made as apply does)
  const demo = ctx.subjects['subject@example.test'];
  if (demo) {
    const [acmeRecord] = await tx.select().from(subjects).where(eq(subjects.id, demo.id));
    if (acmeRecord) {
      const record = await insertSubject(tx, actor, customerId, {
        first_name: acmeRecord.firstName,
        middlename: acmeRecord.middlename,
        last_name: acmeRecord.lastName,
        email: acmeRecord.email,
        dob: acmeRecord.dob ?? undefined,
        phone_number: undefined,
      });
      await apply(record.id, portals.hcd, 3, true);
    }
  }
  await apply(await person('Aisha', 'Khan', '1991-07-14'), portals.phd, 1, false);
  const ben = await apply(await person('Ben', 'Carter', '1979-11-30'), portals.hcd, 9, true);
  await requestInfo(
    service,
    ben,
    'Your DVLA licence shows 9 penalty points: please send the details of each offence.',
  );
  // Daniel Okafor's active licence came from an application the council granted
  const daniel = holders['Daniel Okafor'];
  if (daniel) {
    const granted = await apply(daniel.subject, portals.hcd, 0, true);
    const [row] = await tx.select().from(lmsApplications).where(eq(lmsApplications.id, granted));
    if (row?.caseId) {
      // its criminal-record check and the checks that keep no result data done before the
      // grant, the former with the result the engine would have written (the demo's results of
      // the other kinds are made with their own cases, so those stay as they were)
      const acts = await tx
        .select({ id: caseActivities.id, code: activityTypes.code })
        .from(caseActivities)
        .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
        .where(eq(caseActivities.caseId, row.caseId));
      const done = acts
        .filter(
          (a) =>
            !isResultDataKind(a.code) || (DBS_CHECK_CODES as readonly string[]).includes(a.code),
        )
        .map((a) => a.id);
      // opened when the application was made (three weeks before the grant)
      const opened = new Date(daniel.issued.getTime() - 21 * DAY);
      await tx
        .update(cases)
        .set({ createdAt: opened })
        .where(and(eq(cases.customerId, customerId), eq(cases.id, row.caseId)));
      await tx
        .update(caseActivities)
        .set({ createdAt: opened })
        .where(eq(caseActivities.caseId, row.caseId));
      // and Daniel on the council's books (and his login) from then at the latest
      const [rec] = await tx
        .update(subjects)
        .set({ createdAt: sql`least(${subjects.createdAt}, ${opened})` })
        .where(and(eq(subjects.customerId, customerId), eq(subjects.id, daniel.subject)))
        .returning({ userId: subjects.userId });
      if (rec?.userId) {
        await tx
          .update(subjectUsers)
          .set({ createdAt: sql`least(${subjectUsers.createdAt}, ${opened})` })
          .where(eq(subjectUsers.id, rec.userId));
      }
      if (done.length > 0) {
        await tx
          .update(caseActivities)
          .set({ state: 'ca-complete', completedAt: new Date(daniel.issued.getTime() - 2 * DAY) })
          .where(inArray(caseActivities.id, done));
      }
      await seedDisclosureResults(ctx);
      // Daniel's certificate is on the DBS update service: his licence's six-monthly check
      // (started here as the job would; the simulator answers at start-up: new information,
      // which flags his licence to the licensing team)
      await tx.insert(caseDbsUpdateDetails).values({
        customerId,
        caseId: row.caseId,
        certificateNumber: '400000004021',
        surname: 'Okafor',
        dob: '1980-02-03',
      });
    }
    await tx
      .update(lmsApplications)
      .set({
        state: 'granted',
        licenceId: daniel.licence,
        decidedAt: daniel.issued,
        createdAt: new Date(daniel.issued.getTime() - 21 * DAY),
        updatedAt: daniel.issued,
      })
      .where(eq(lmsApplications.id, granted));
    await tx.insert(lmsApplicationEvents).values({
      customerId,
      applicationId: granted,
      action: 'grant',
      fromState: 'in_progress',
      toState: 'granted',
      actorName: 'Nadia North',
      createdAt: daniel.issued,
    });
  }
  // the update service cycles of Northgate's licensed drivers due today (Daniel's)
  await cycleCustomer(service, customerId);
  const tom = holders['Tom Walsh'];
  if (tom) {
    const again = await apply(tom.subject, portals.hcd, 14, true);
    await refuseApplication(
      service,
      again,
      "The applicant's licence was revoked for a relevant conviction less than 12 months ago (council policy 4.2).",
    );
  }
}
