import { and, asc, eq } from 'drizzle-orm';
import { createCase, createSubjectUser } from '../../db/factories.js';
import type { DemoSeedContext } from '../../platform/module.js';
import { processes } from '../processes/processes.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { subjectUsers } from '../users/users.table.js';
import { ERASURE_KEEPS } from './erasure.service.js';
import { erasureRequests } from './erasure-requests.table.js';

const DAY_MS = 86_400_000;

/**
 * Acme Care Ltd's erasure requests (issue 34, /subjects/data-requests): one a person asked for,
 * awaiting the customer's decision, and one recorded by the administrator and carried out (the
 * person's details, answers and documents removed; the case and its checks kept). Two people of
 * their own, so no other demo journey loses its subject.
 */
export async function seedDataRequestsDemo(ctx: DemoSeedContext): Promise<void> {
  const { tx, clock } = ctx;
  const customerId = ctx.customers.acme;
  const admin = ctx.users['admin@acme.test'];
  if (!admin) return;
  const [process] = await tx
    .select({ id: processes.id })
    .from(processes)
    .where(and(eq(processes.customerId, customerId), eq(processes.isActive, true)))
    .orderBy(asc(processes.id))
    .limit(1);
  if (!process) return;
  const now = clock.now().getTime();
  const ago = (days: number) => new Date(now - days * DAY_MS);

  const asking = await createSubjectUser(tx, {
    customerId,
    email: 'riley.morgan@example.test',
    firstName: 'Riley',
    lastName: 'Morgan',
    dob: '1986-09-03',
    createdAt: ago(400),
  });
  await createCase(tx, {
    customerId,
    processId: process.id,
    subjectId: asking.id,
    activityStates: ['ca-awaiting-subject'],
    createdAt: ago(390),
  });
  await tx.insert(erasureRequests).values({
    customerId,
    subjectId: asking.id,
    requestedByType: 'SubjectUser',
    requestedById: asking.userId,
    requestedByName: 'Riley Morgan',
    reason: 'I no longer work with Acme Care and would like my details removed.',
    createdAt: ago(3),
  });

  // carried out: what is left of the person after the erasure (the seed role writes, never
  // deletes, so the record is made as the erasure leaves it), and the request saying what was done
  const erased = await createSubjectUser(tx, {
    customerId,
    email: `erased-${customerId}-demo@erased.invalid`,
    password: null,
    firstName: 'Erased',
    lastName: 'subject',
    dob: null,
    phoneNumber: '',
    createdAt: ago(700),
  });
  await createCase(tx, {
    customerId,
    processId: process.id,
    subjectId: erased.id,
    // withdrawn by the organisation before the request (a complete case would carry results)
    activityStates: ['ca-cancelled'],
    createdAt: ago(690),
  });
  await tx
    .update(subjects)
    .set({ archivedAt: ago(10) })
    .where(and(eq(subjects.customerId, customerId), eq(subjects.id, erased.id)));
  await tx.update(subjectUsers).set({ isActive: false }).where(eq(subjectUsers.id, erased.userId));
  await tx.insert(erasureRequests).values({
    customerId,
    subjectId: erased.id,
    state: 'completed',
    requestedByType: 'ProductUser',
    requestedById: admin.id,
    requestedByName: 'Alex Admin',
    reason: 'Asked by letter; no legal reason to keep the details.',
    createdAt: ago(12),
    decidedAt: ago(10),
    decidedById: admin.id,
    decidedByName: 'Alex Admin',
    completedAt: ago(10),
    outcome: {
      removed: { case_basic_details: 1, case_addresses: 3, case_documents: 1, subjects: 1 },
      files: 2,
      results: 0,
      kept: ERASURE_KEEPS,
      signIn: 'disabled',
    },
  });
}
