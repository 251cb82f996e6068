import { ROLE_TEMPLATES } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer,
  createProcess,
  createProductUser,
  createTestDatabase,
  ManualClock,
} from '../../../../test/helpers.js';
import type { Database } from '../../../db/connection.js';
import { type Actor, systemActor } from '../../../platform/context.js';
import { queueJobs } from '../../../platform/jobs.js';
import { runInTenant } from '../../../platform/service-context.js';
import { auditActions } from '../../../platform/tables/audit.table.js';
import { caseActivities } from '../../activities/activities.table.js';
import { cases } from '../cases.table.js';
import { openCase } from './open-case.js';

// The command runs on a database and a clock alone: no app, no Fastify request, no AppDeps.
let db: Database;
let drop: () => Promise<void>;
const clock = new ManualClock('2026-03-02T09:00:00Z');
let staff: Actor;
let processId: number;

beforeAll(async () => {
  ({ db, drop } = await createTestDatabase());
  await db.ownerTransaction(async (tx) => {
    const c = await createCustomer(tx, { name: 'Acme' });
    const u = await createProductUser(tx, { customerId: c.id, username: 'admin@acme.test' });
    const p = await createProcess(tx, {
      customerId: c.id,
      requirements: ['basic-details', 'dbs-basic'],
      sendInvitation: true,
    });
    processId = p.id;
    staff = {
      ...systemActor,
      type: 'ProductUser',
      id: u.id,
      name: 'admin@acme.test',
      customerId: c.id,
      permissions: new Set(ROLE_TEMPLATES.admin),
    };
  });
});
afterAll(() => drop());

describe('the open-case command', () => {
  it('opens a case with its activities, audit and invitation job, without any request', async () => {
    const detail = await runInTenant({ db, clock }, staff, (ctx) =>
      openCase(
        ctx,
        { publicUrl: 'https://kestrel.test' },
        {
          process: processId,
          new_subject: {
            first_name: 'Ada',
            last_name: 'Lovelace',
            email: 'ada@example.test',
          },
        },
      ),
    );
    expect(detail).toMatchObject({
      state: 'awaiting-subject',
      process: { id: processId },
      subject: { first_name: 'Ada', email: 'ada@example.test' },
      summary: { activities: 2 },
    });
    const seen = await db.ownerTransaction(async (tx) => ({
      row: (await tx.select().from(cases).where(eq(cases.id, detail.id)))[0],
      activities: await tx
        .select({ state: caseActivities.state })
        .from(caseActivities)
        .where(eq(caseActivities.caseId, detail.id))
        .orderBy(caseActivities.position),
      audit: await tx
        .select({ verb: auditActions.verb, actorId: auditActions.actorId })
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'cases.case'),
            eq(auditActions.objectId, `${detail.id}`),
          ),
        )
        .orderBy(auditActions.id),
      jobs: await tx.select().from(queueJobs).where(eq(queueJobs.name, 'send-email')),
    }));
    expect(seen.row).toMatchObject({
      customerId: staff.customerId,
      createdById: staff.id,
      createdAt: clock.now(),
    });
    expect(seen.activities.map((a) => a.state)).toEqual([
      'ca-awaiting-subject',
      'ca-awaiting-subject',
    ]);
    expect(seen.audit).toEqual([
      { verb: 'created', actorId: staff.id },
      { verb: 'invited', actorId: staff.id },
    ]);
    expect(seen.jobs).toHaveLength(1);
    expect(seen.jobs[0]).toMatchObject({ state: 'created' });
    expect(seen.jobs[0]?.data).toMatchObject({
      to: 'ada@example.test',
      subject: 'Your Kestrel Checks account',
      text: expect.stringContaining('https://kestrel.test/auth/claim-account?token='),
    });
  });

  it('leaves nothing behind, job included, when the command fails', async () => {
    const before = await db.ownerTransaction(async (tx) => ({
      cases: (await tx.select({ id: cases.id }).from(cases)).length,
      jobs: (await tx.select({ id: queueJobs.id }).from(queueJobs)).length,
    }));
    await expect(
      runInTenant({ db, clock }, staff, (ctx) =>
        openCase(
          ctx,
          { publicUrl: 'https://kestrel.test' },
          { process: processId + 1000, subject: 1 },
        ),
      ),
    ).rejects.toMatchObject({ fields: { process: [expect.any(String)] } });
    const after = await db.ownerTransaction(async (tx) => ({
      cases: (await tx.select({ id: cases.id }).from(cases)).length,
      jobs: (await tx.select({ id: queueJobs.id }).from(queueJobs)).length,
    }));
    expect(after).toEqual(before);
  });
});
