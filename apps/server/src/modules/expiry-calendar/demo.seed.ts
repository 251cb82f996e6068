import { asc, eq } from 'drizzle-orm';
import { createCase, createProcess } from '../../db/factories.js';
import type { DemoSeedContext } from '../../platform/module.js';
import { caseActivities } from '../activities/activities.table.js';
import { casePassports } from '../case-data/case-data.table.js';
import { cases } from '../cases/cases.table.js';
import { consentExpiry } from '../portal/consents.service.js';
import { subjectConsents } from '../portal/consents.table.js';

const DAY = 86_400_000;

/** The demo's process of driver checks (the demo subject's finished case of it). */
export const DEMO_DRIVER_PROCESS = 'Driver checks (DVLA)';
/** In how many days the demo subject's DVLA mandate ends (due for renewal: /s/dvla-reconsent). */
export const DEMO_MANDATE_DAYS_LEFT = 25;

/**
 * The expiry calendar's demo: the passports of Acme's first two cases expire 12 and 45 days from
 * the seed's day (a passport row written, or its expiry moved when the case has one), so the
 * calendar shows them from a fresh start; and the demo subject (subject@example.test) has a
 * driver check at Acme finished this month on a DVLA mandate given almost 3 years ago, which
 * ends in 25 days:
 * the calendar lists it, the subject's dashboard asks to renew it (/s/dvla-reconsent).
 */
export async function seedExpiryDemo(ctx: DemoSeedContext): Promise<void> {
  await seedPassports(ctx);
  await seedDueMandate(ctx);
}

async function seedPassports(ctx: DemoSeedContext): Promise<void> {
  const { tx, clock } = ctx;
  const acme = ctx.customers.acme;
  const first = await tx
    .select({ id: cases.id })
    .from(cases)
    .where(eq(cases.customerId, acme))
    .orderBy(asc(cases.id))
    .limit(2);
  const inDays = [12, 45];
  for (const [i, c] of first.entries()) {
    const expiryDate = new Date(clock.now().getTime() + (inDays[i] ?? 45) * DAY)
      .toISOString()
      .slice(0, 10);
    await tx
      .insert(casePassports)
      .values({
        customerId: acme,
        caseId: c.id,
        number: `50${c.id}77123`,
        country: 'GBR',
        expiryDate,
      })
      .onConflictDoUpdate({
        target: [casePassports.customerId, casePassports.caseId],
        set: { expiryDate },
      });
  }
}

/** The demo subject's finished driver check at Acme, its DVLA mandate due for renewal. */
async function seedDueMandate(ctx: DemoSeedContext): Promise<void> {
  const { tx, clock } = ctx;
  const acme = ctx.customers.acme;
  const subject = ctx.subjects['subject@example.test'];
  if (!subject || subject.customerId !== acme) return;
  const now = clock.now().getTime();
  const ends = new Date(now + DEMO_MANDATE_DAYS_LEFT * DAY);
  const givenAt = new Date(ends);
  givenAt.setUTCFullYear(givenAt.getUTCFullYear() - 3);
  const process = await createProcess(tx, {
    customerId: acme,
    name: DEMO_DRIVER_PROCESS,
    description: 'A driving licence and driver record check with the DVLA.',
    requirements: ['driver-data'],
  });
  const c = await createCase(tx, {
    customerId: acme,
    processId: process.id,
    subjectId: subject.id,
    activityStates: ['ca-complete'],
    // this year's licence check, on the mandate the person signed almost 3 years ago (a
    // mandate covers every check for its 3 years); the case after the subject's record (30 days)
    createdAt: new Date(now - 20 * DAY),
    completedAt: new Date(now - 12 * DAY),
  });
  const [activity] = await tx
    .select({ id: caseActivities.id })
    .from(caseActivities)
    .where(eq(caseActivities.caseId, c.id));
  if (!activity) return;
  await tx.insert(subjectConsents).values({
    customerId: acme,
    caseId: c.id,
    caseActivityId: activity.id,
    kind: 'driver-data',
    givenAt,
    expiresAt: consentExpiry('driver-data', givenAt),
  });
}
