import { subjectCreate } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { readConfig } from '../../config.js';
import { createCase, createProcess } from '../../db/factories.js';
import type { Actor } from '../../platform/context.js';
import { enqueue } from '../../platform/jobs.js';
import type { DemoSeedContext } from '../../platform/module.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { cases } from '../cases/cases.table.js';
import { openCase } from '../cases/commands/open-case.js';
import { processes } from '../processes/processes.table.js';

const DAY = 86_400_000;

/** The demo subject's case needing every kind of check: its process's name. */
export const EVERY_CHECK_PROCESS = 'Full check (every kind)';
/** The invited subject whose account is not claimed yet (the invitation is in the outbox). */
export const DEMO_INVITED_SUBJECT = 'jordan.lee@example.test';
/** How far the demo subject got: basic details done, address history part done. */
export const DEMO_PORTAL_PROGRESS = 'address-history/1';

/**
 * Demo data of the subject portal (issue 16), run between the workspace seed (100) and the case
 * data seed (110) so that the case below gets case data too:
 * - subject@example.test has an open Acme case needing every kind of check that has a portal
 *   section, half filled in (the case data seed gives it basic details and an address history
 *   with a gap; its progress says basic details done, address history part done);
 * - jordan.lee@example.test is invited by Acme (the case command that opens a case for a new
 *   subject): an unclaimed account, and the invitation with its claim link in the outbox once
 *   the send-email job has run (moments after the server starts).
 */
export async function seedPortalDemo(ctx: DemoSeedContext): Promise<void> {
  const { tx, clock } = ctx;
  const acme = ctx.customers.acme;
  const now = clock.now().getTime();
  const subject = ctx.subjects['subject@example.test'];
  if (subject) {
    const every = await createProcess(tx, {
      customerId: acme,
      name: EVERY_CHECK_PROCESS,
      description: 'Every kind of check the subject portal has a section for.',
      // A case opened with it for a new person emails the invitation (the whole journey).
      sendInvitation: true,
      requirements: [
        { code: 'online-idv', config: { scheme_type: 'rtw-dbs' } },
        'basic-details',
        'address-history',
        {
          code: 'document-collection',
          config: { collectors: ['Proof of identity', 'Right to work'] },
        },
        {
          code: 'dbs-enhanced',
          config: {
            purpose: 'employment',
            workforce: 'A',
            adult_barred_list: true,
            employment_sector: 'social-care',
          },
        },
        { code: 'dbs-standard', config: { purpose: 'employment', employment_sector: 'health' } },
        { code: 'dbs-basic', config: { purpose: 'employment' } },
        'dbs-update',
        'driver-data',
        'rtw',
      ],
    });
    const c = await createCase(tx, {
      customerId: acme,
      processId: every.id,
      subjectId: subject.id,
      activityStates: ['ca-awaiting-subject'],
      createdAt: new Date(now - DAY),
    });
    await tx
      .update(cases)
      .set({ portalLastCompletedSection: DEMO_PORTAL_PROGRESS })
      .where(eq(cases.id, c.id));
  }

  const admin = ctx.users['admin@acme.test'];
  const [office] = await tx
    .select({ id: processes.id })
    .from(processes)
    .where(and(eq(processes.customerId, acme), eq(processes.name, 'Office staff')));
  if (!admin || !office) return;
  const actor: Actor = {
    type: 'ProductUser',
    id: admin.id,
    name: 'Alex Admin',
    customerId: acme,
    isOps: false,
    permissions: new Set(['subjects.add_subject', 'cases.add_case']),
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
  await openCase(
    service,
    { publicUrl: readConfig(process.env, process.cwd()).publicUrl },
    {
      process: office.id,
      new_subject: subjectCreate.parse({
        first_name: 'Jordan',
        last_name: 'Lee',
        email: DEMO_INVITED_SUBJECT,
      }),
    },
  );
}
