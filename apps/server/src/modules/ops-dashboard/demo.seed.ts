import { and, eq } from 'drizzle-orm';
import {
  createCase,
  createProcess,
  createProductUser,
  createSubjectUser,
} from '../../db/factories.js';
import { DEMO_PASSWORD } from '../../db/seed.js';
import { recordAudit } from '../../platform/audit.js';
import { systemActor } from '../../platform/context.js';
import type { DemoSeedContext } from '../../platform/module.js';
import { caseActivities } from '../activities/activities.table.js';
import { createPaymentIntent } from '../payments/payments.factories.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** The second operations user of the demo: she holds one of the queue's checks. */
export const DEMO_SECOND_OPS = 'owen.ops@kestrel.test';

/**
 * Operations' morning (issue 29): checks waiting for operations across both customers at several
 * ages (some past their target), two of them claimed (Olivia Ops and Owen Ops), one whose start
 * failed at its provider, twelve weeks of completed checks for the throughput chart, and a
 * declined top-up.
 */
export async function seedOpsQueueDemo(ctx: DemoSeedContext): Promise<void> {
  const { tx, clock } = ctx;
  const now = clock.now().getTime();
  const olivia = ctx.users['ops@kestrel.test'];
  if (!olivia) return;
  const owen = await createProductUser(tx, {
    customerId: null,
    username: DEMO_SECOND_OPS,
    firstName: 'Owen',
    lastName: 'Ops',
    jobTitle: 'Operations officer',
    password: DEMO_PASSWORD,
    roles: ['ops'],
  });
  const { acme, northgate } = ctx.customers;
  const enhanced = await createProcess(tx, {
    customerId: acme,
    name: 'Senior carer vetting',
    description: 'Enhanced criminal record check, worked by operations.',
    requirements: [
      {
        code: 'dbs-enhanced',
        config: { purpose: 'employment', workforce: 'A', employment_sector: 'social-care' },
      },
    ],
  });
  const knowledge = await createProcess(tx, {
    customerId: northgate,
    name: 'Taxi driver knowledge',
    description: 'Local knowledge test, marked by operations.',
    requirements: ['knowledge-test'],
  });
  const people = [
    ['Priya', 'Shah'],
    ['Tom', 'Baker'],
    ['Grace', 'Okafor'],
    ['Liam', 'Murphy'],
    ['Ella', 'Wright'],
    ['Noah', 'Hughes'],
  ] as const;
  let n = 0;
  const waiting = async (
    customerId: number,
    processId: number,
    ageMs: number,
    state: 'ca-awaiting-ops' | 'ca-error-initiating' = 'ca-awaiting-ops',
  ) => {
    const [first, last] = people[n % people.length] ?? ['Sam', 'Person'];
    n += 1;
    const person = await createSubjectUser(tx, {
      customerId,
      email: `${first}.${last}.${n}@example.test`.toLowerCase(),
      firstName: first,
      lastName: last,
      password: null,
      createdAt: new Date(now - ageMs - DAY),
    });
    const c = await createCase(tx, {
      customerId,
      processId,
      subjectId: person.id,
      activityStates: [state],
      createdAt: new Date(now - ageMs),
    });
    const [a] = await tx
      .select({ id: caseActivities.id })
      .from(caseActivities)
      .where(and(eq(caseActivities.customerId, customerId), eq(caseActivities.caseId, c.id)));
    return { caseId: c.id, activityId: a?.id ?? 0, customerId };
  };
  const claim = async (
    row: { activityId: number; customerId: number },
    who: { id: number; name: string },
    ageMs: number,
  ) => {
    await tx
      .update(caseActivities)
      .set({ claimedById: who.id, claimedByName: who.name, claimedAt: new Date(now - ageMs) })
      .where(
        and(eq(caseActivities.customerId, row.customerId), eq(caseActivities.id, row.activityId)),
      );
    await recordAudit(
      tx,
      { ...systemActor, id: who.id, name: who.name, type: 'ProductUser' },
      {
        verb: 'updated',
        contentType: 'cases.caseactivity',
        objectId: row.activityId,
        objectRepr: `Activity ${row.activityId}`,
        changes: { claimed_by: [null, who.name] },
        customerId: row.customerId,
      },
    );
  };
  // waiting for operations: enhanced checks (target a day) and knowledge tests (three days)
  const oldest = await waiting(acme, enhanced.id, 9 * DAY);
  const twoDays = await waiting(acme, enhanced.id, 2 * DAY + 3 * HOUR);
  await waiting(acme, enhanced.id, 5 * HOUR);
  await waiting(acme, enhanced.id, 40 * 60_000);
  await waiting(northgate, knowledge.id, 4 * DAY);
  await waiting(northgate, knowledge.id, 20 * HOUR);
  await waiting(acme, enhanced.id, 26 * HOUR, 'ca-error-initiating');
  await claim(twoDays, { id: olivia.id, name: 'Olivia Ops' }, 3 * HOUR);
  await claim(oldest, { id: owen.id, name: 'Owen Ops' }, DAY);
  // twelve weeks of completed activities (a few a week), each person added a day before
  const details = {
    [acme]: await createProcess(tx, {
      customerId: acme,
      name: 'Starter details',
      requirements: ['basic-details'],
    }),
    [northgate]: await createProcess(tx, {
      customerId: northgate,
      name: 'Licence holder details',
      requirements: ['basic-details'],
    }),
  };
  for (let week = 0; week < 12; week++) {
    const done = 2 + ((week * 5) % 4);
    for (let i = 0; i < done; i++) {
      const at = new Date(now - week * 7 * DAY - (i + 1) * 9 * HOUR);
      const customerId = (week + i) % 3 === 0 ? northgate : acme;
      const [first, last] = people[(week + i) % people.length] ?? ['Sam', 'Person'];
      const person = await createSubjectUser(tx, {
        customerId,
        email: `${first}.${last}.w${week}.${i}@example.test`.toLowerCase(),
        firstName: first,
        lastName: last,
        password: null,
        createdAt: new Date(at.getTime() - DAY),
      });
      await createCase(tx, {
        customerId,
        processId: details[customerId]?.id ?? enhanced.id,
        subjectId: person.id,
        activityStates: ['ca-complete'],
        createdAt: at,
        completedAt: at,
      });
    }
  }
  // a top-up the person's card declined
  const topUp = await waiting(acme, enhanced.id, 3 * DAY);
  await tx
    .update(caseActivities)
    .set({ state: 'ca-awaiting-subject' })
    .where(and(eq(caseActivities.customerId, acme), eq(caseActivities.id, topUp.activityId)));
  await createPaymentIntent(tx, {
    customerId: acme,
    caseId: topUp.caseId,
    caseActivityId: topUp.activityId,
    outcome: 'declined',
  });
}
