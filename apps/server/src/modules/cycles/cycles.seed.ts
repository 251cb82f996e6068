import { nextDueAfter } from '@kestrel/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { DemoSeedContext } from '../../platform/module.js';
import { processes } from '../processes/processes.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { cycles, subscriptions } from './cycles.table.js';

const DAY = 86_400_000;

/**
 * Acme Care Ltd (entitled to cycles): on its care workers' process, a six-monthly update-service
 * cycle (`dbs-update`, billed monthly) and a yearly driver-data cycle (billed yearly); five
 * subscriptions: three active (one due within days, one in three months, one in ten months),
 * one paused, one ended; billed on their schedules from their start.
 */
export async function seedCyclesDemo(ctx: DemoSeedContext): Promise<void> {
  const { tx } = ctx;
  const now = ctx.clock.now();
  const customerId = ctx.customers.acme;
  const [process] = await tx
    .select({ id: processes.id })
    .from(processes)
    .where(and(eq(processes.customerId, customerId), eq(processes.name, 'Care worker onboarding')));
  if (!process) return;
  const [update, driver] = await tx
    .insert(cycles)
    .values([
      {
        customerId,
        processId: process.id,
        name: 'Update service check',
        requirements: ['dbs-update'],
        repeatInterval: 6,
        repeatUnit: 'monthly',
        billingInterval: 1,
        billingTriggered: 'monthly',
      },
      {
        customerId,
        processId: process.id,
        name: 'Driver data',
        requirements: ['driver-data'],
        repeatInterval: 1,
        repeatUnit: 'yearly',
        billingInterval: 1,
        billingTriggered: 'yearly',
      },
    ])
    .returning();
  if (!update || !driver) throw new Error('demo cycles not made');
  const people = await tx
    .select({ id: subjects.id })
    .from(subjects)
    .where(eq(subjects.customerId, customerId))
    .orderBy(asc(subjects.id))
    .limit(5);
  const plan = [
    { cycle: update, state: 'active', startedDaysAgo: 182 - 1 },
    { cycle: update, state: 'active', startedDaysAgo: 90 },
    { cycle: driver, state: 'active', startedDaysAgo: 60 },
    { cycle: update, state: 'paused', startedDaysAgo: 30 },
    { cycle: driver, state: 'ended', startedDaysAgo: 200 },
  ] as const;
  const rows = plan.flatMap((p, i) => {
    const person = people[i];
    if (!person) return [];
    const started = new Date(now.getTime() - p.startedDaysAgo * DAY);
    const next = nextDueAfter(started, now, p.cycle.repeatInterval, p.cycle.repeatUnit);
    const billed = nextDueAfter(started, now, p.cycle.billingInterval, p.cycle.billingTriggered);
    const ended = p.state === 'ended';
    return [
      {
        customerId,
        cycleId: p.cycle.id,
        subjectId: person.id,
        state: p.state,
        startedAt: started,
        nextDueAt: ended ? null : next,
        nextBillingAt: ended ? null : billed,
        pausedAt: p.state === 'paused' ? new Date(now.getTime() - 5 * DAY) : null,
        endedAt: ended ? new Date(now.getTime() - 10 * DAY) : null,
        createdAt: started,
        updatedAt: started,
      },
    ];
  });
  if (rows.length > 0) await tx.insert(subscriptions).values(rows);
}
