import { sessionDateTime } from '@kestrel/domain';
import { and, asc, eq } from 'drizzle-orm';
import { createCase, createProcess } from '../../db/factories.js';
import { ManualClock } from '../../platform/clock.js';
import { systemActor } from '../../platform/context.js';
import type { DemoSeedContext } from '../../platform/module.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { bookPlace, recordAttendance } from './bookings.service.js';
import { createSession } from './sessions.service.js';

const DAY = 86_400_000;

/** The demo's sessions: days from today, time, place, capacity. */
const SESSIONS = [
  [-7, '10:00', 'Depot, Unit 4 Riverside Park', 8],
  [5, '09:30', 'Council offices, Room 2', 6],
  [12, '14:00', 'Depot, Unit 4 Riverside Park', 2],
] as const;

/**
 * Trust-to-ride for both customers, through the services the endpoints use (on a clock moved
 * over the story's days): a past session whose register has one subject who attended and one
 * who did not, an upcoming one with a subject booked, another with places left, and a subject
 * not booked yet (the demo subject at Acme among them: it can book from its case page).
 */
export async function seedTrustToRideDemo(ctx: DemoSeedContext): Promise<void> {
  const now = ctx.clock.now().getTime();
  const clock = new ManualClock(new Date(now - 20 * DAY));
  const service: ServiceContext = {
    tx: ctx.tx,
    actor: { ...systemActor, name: 'Olivia Ops', isOps: true },
    clock,
    enqueue: async () => {
      throw new Error('the trust-to-ride demo enqueues no job');
    },
    afterCommit: () => undefined,
  };
  for (const customerId of Object.values(ctx.customers)) {
    const process = await createProcess(ctx.tx, {
      customerId,
      name: 'Trust to ride assessment',
      description: 'A supervised ride with a council assessor.',
      requirements: ['trust-to-ride'],
    });
    const sessions = [];
    for (const [days, time, place, capacity] of SESSIONS) {
      const { date } = sessionDateTime(new Date(now + days * DAY));
      sessions.push(
        await createSession(service, { customer: customerId, date, time, place, capacity }),
      );
    }
    const people = await ctx.tx
      .select({ id: subjects.id })
      .from(subjects)
      .where(eq(subjects.customerId, customerId))
      .orderBy(asc(subjects.id))
      .limit(4);
    const demo = Object.values(ctx.subjects).find((s) => s.customerId === customerId);
    const who = demo ? [...people.slice(0, 3), { id: demo.id }] : people;
    const activities: number[] = [];
    for (const [i, p] of who.entries()) {
      const c = await createCase(ctx.tx, {
        customerId,
        processId: process.id,
        subjectId: p.id,
        activityStates: ['ca-awaiting-ops'],
        createdAt: new Date(now - (18 - i) * DAY),
      });
      const [a] = await ctx.tx
        .select({ id: caseActivities.id })
        .from(caseActivities)
        .where(and(eq(caseActivities.customerId, customerId), eq(caseActivities.caseId, c.id)));
      if (a) activities.push(a.id);
    }
    const [past, soon] = sessions;
    const [attended, missed, booked] = activities;
    if (!past || !soon || attended === undefined || missed === undefined) continue;
    // booked ten days before the past session, its register kept an hour after it started
    clock.set(new Date(now - 17 * DAY));
    const a = await bookPlace(service, { session: past.id, case_activity: attended });
    const m = await bookPlace(service, { session: past.id, case_activity: missed });
    if (booked !== undefined) await bookPlace(service, { session: soon.id, case_activity: booked });
    clock.set(new Date(new Date(past.starts_at).getTime() + 3_600_000));
    await recordAttendance(service, a.id, 'attended');
    await recordAttendance(service, m.id, 'did-not-attend');
  }
}
