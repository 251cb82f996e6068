import {
  ACTIVITY_KINDS,
  deriveCaseState,
  initialProcessingData,
  type ProcessingData,
  withEvent,
} from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { createCase, createProcess, createSubjectUser } from '../../../db/factories.js';
import { ManualClock } from '../../../platform/clock.js';
import { systemActor } from '../../../platform/context.js';
import { enqueue } from '../../../platform/jobs.js';
import type { DemoSeedContext } from '../../../platform/module.js';
import type { ServiceContext } from '../../../platform/service-context.js';
import { IdvSimulator } from '../../../providers/idv/simulator.js';
import { caseActivities } from '../../activities/activities.table.js';
import { cases } from '../../cases/cases.table.js';
import { idvResultDataOf, storeIdvResult } from '../../online-idv/online-idv.service.js';
import { caseOnlineIdv } from '../../online-idv/online-idv.table.js';
import { approveOnlineIdv } from './approve.js';
import { idvStateOf } from './kind.js';

/*
 * The demo's online identity checks, for both customers: a case per stage, each run through the
 * identity provider's simulator (its README: the surname chooses) and stored the way the portal
 * and the engine store it (storeIdvResult, idvResultDataOf, idvStateOf): verified and complete
 * (Lee Morgan), a name mismatch waiting for a decision (Jo Mismatch), and a name mismatch
 * approved by hand by operations (Kim Mismatchother, approveOnlineIdv).
 */

const DAY = 86_400_000;
const SCENARIOS = [
  { forename: 'Lee', surname: 'Morgan', approve: false },
  { forename: 'Jo', surname: 'Mismatch', approve: false },
  { forename: 'Kim', surname: 'Mismatchother', approve: true },
] as const;

/** The approval's reason in the demo. */
export const DEMO_IDV_APPROVAL_REASON =
  'Marriage certificate seen: the document carries the previous surname.';

export async function seedOnlineIdvResults(ctx: DemoSeedContext): Promise<void> {
  const { tx } = ctx;
  const now = ctx.clock.now().getTime();
  const opsUser = Object.values(ctx.users).find((u) => u.customerId === null);
  for (const [ci, customerId] of Object.values(ctx.customers).entries()) {
    const process = await createProcess(tx, {
      customerId,
      name: 'Online identity check',
      description: 'An online identity check with a certified identity service provider.',
      requirements: ['online-idv'],
    });
    for (const [i, s] of SCENARIOS.entries()) {
      const startedAt = now - (2 + i) * DAY;
      const clock = new ManualClock(new Date(startedAt));
      const service: ServiceContext = {
        tx,
        actor: systemActor,
        clock,
        enqueue: async (job) => {
          await enqueue(tx, job);
        },
        afterCommit: () => {},
      };
      const simulator = new IdvSimulator({ clock, callbackSecret: 'demo-seed' });
      const subject = await createSubjectUser(tx, {
        customerId,
        email: `${s.forename.toLowerCase()}.${s.surname.toLowerCase()}${ci}@example.com`,
        firstName: s.forename,
        lastName: s.surname,
        password: null,
        createdAt: new Date(startedAt - 2 * 3_600_000),
      });
      const c = await createCase(tx, {
        customerId,
        processId: process.id,
        subjectId: subject.id,
        activityStates: ['ca-in-progress'],
        createdAt: new Date(startedAt - 3_600_000),
      });
      const [activity] = await tx
        .select()
        .from(caseActivities)
        .where(and(eq(caseActivities.customerId, customerId), eq(caseActivities.caseId, c.id)));
      if (!activity) continue;
      // the subject opens the session in the portal and finishes it at the provider
      const session = await simulator.createSession({
        reference: `case-${c.id}`,
        person: { forename: s.forename, middlename: '', surname: s.surname, dob: '1988-06-14' },
        level: 'medium',
        returnUrl: 'http://localhost:8080/portal/',
        callbackUrl: `http://localhost:8080/callbacks/checks/idv/${activity.id}/`,
      });
      await tx.insert(caseOnlineIdv).values({
        customerId,
        caseId: c.id,
        provider: simulator.name,
        session: session.id,
        sessionUrl: session.url,
        status: 'in-progress',
        startedAt: clock.now(),
      });
      clock.advance(600_000);
      const { result } = simulator.finish(session.id);
      await storeIdvResult(service, result);
      // the engine on submission: the stored result moves the activity (kind.ts applyResult)
      clock.advance(600_000);
      const fetched = await simulator.fetchResult(session.id);
      const [row] = await tx.select().from(caseOnlineIdv).where(eq(caseOnlineIdv.caseId, c.id));
      if (!row) continue;
      const data = ACTIVITY_KINDS['online-idv'].result.parse(idvResultDataOf(row));
      const state = idvStateOf(data);
      const at = clock.now().toISOString();
      let processing: ProcessingData = {
        ...initialProcessingData('idv', `kestrel-ca-${activity.id}`),
        reference: session.id,
      };
      processing = withEvent(processing, {
        at,
        type: 'request',
        body: { session: session.id, stored: true },
      });
      processing = withEvent(processing, { at, type: 'answer', body: { result: fetched } });
      await tx
        .update(caseActivities)
        .set({
          state,
          resultData: data,
          processingData: processing,
          completedAt: state === 'ca-complete' ? clock.now() : null,
          updatedAt: clock.now(),
        })
        .where(eq(caseActivities.id, activity.id));
      await tx
        .update(cases)
        .set({ state: deriveCaseState([state]) })
        .where(and(eq(cases.customerId, customerId), eq(cases.id, c.id)));
      if (s.approve && opsUser) {
        clock.advance(DAY / 2);
        await approveOnlineIdv(
          {
            ...service,
            actor: {
              ...systemActor,
              type: 'ProductUser',
              id: opsUser.id,
              name: 'Olivia Ops',
              isOps: true,
            },
          },
          activity.id,
          { reason: DEMO_IDV_APPROVAL_REASON },
        );
      }
    }
  }
}
