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
import { createHomeOfficeRtwSimulator } from '../../../providers/home-office-rtw/simulator.js';
import { caseActivities } from '../../activities/activities.table.js';
import { createCaseBasicDetails } from '../../case-data/case-data.factories.js';
import { cases } from '../../cases/cases.table.js';
import { customers } from '../../customers/customers.table.js';
import { caseRtwDetails } from '../../dbs-details/dbs-details.table.js';
import { maskIdentifier } from '../../encryption/mask.js';
import { HOME_OFFICE_CHECKER, mapShareCodeAnswer, recordRtwDetails } from './kind.js';

/*
 * The demo's right-to-work checks by share code, for both customers: a case per answer of the
 * Home Office simulator (its README: the share code chooses), each asked with the case's share
 * code and date of birth and recorded through the kind's own mapping (mapShareCodeAnswer,
 * recordRtwDetails): a permanent right (Ana Settled), a time-limited right with its follow-up
 * date (Ravi Skilled, WTL…), no profile found waiting for a decision (Eva Notfound, WNF…); and
 * one case still waiting for the subject (Tom Pending).
 */

const DAY = 86_400_000;
const SCENARIOS = [
  { forename: 'Ana', surname: 'Settled', shareCode: 'WAB12C34D' },
  { forename: 'Ravi', surname: 'Skilled', shareCode: 'WTL45F67G' },
  { forename: 'Eva', surname: 'Notfound', shareCode: 'WNF89H12J' },
] as const;

export async function seedRtwResults(ctx: DemoSeedContext): Promise<void> {
  const { tx } = ctx;
  const now = ctx.clock.now().getTime();
  const signal = new AbortController().signal;
  for (const [ci, customerId] of Object.values(ctx.customers).entries()) {
    const [customer] = await tx
      .select({ name: customers.name })
      .from(customers)
      .where(eq(customers.id, customerId));
    const process = await createProcess(tx, {
      customerId,
      name: 'Right to work check',
      description: 'Right to work by Home Office share code, or documents checked by hand.',
      requirements: ['rtw'],
    });
    const waiting = await createSubjectUser(tx, {
      customerId,
      email: `tom.pending${ci}@example.com`,
      firstName: 'Tom',
      lastName: 'Pending',
      password: null,
    });
    await createCase(tx, { customerId, processId: process.id, subjectId: waiting.id });
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
      const simulator = createHomeOfficeRtwSimulator({ clock });
      const person = { forename: s.forename, surname: s.surname, dob: '1991-09-23' };
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
      const key = { customerId, caseId: c.id };
      await createCaseBasicDetails(tx, key, person);
      // the subject chose the share-code route in the portal
      await tx
        .insert(caseRtwDetails)
        .values({ ...key, route: 'share-code', shareCode: s.shareCode });
      const [activity] = await tx
        .select()
        .from(caseActivities)
        .where(and(eq(caseActivities.customerId, customerId), eq(caseActivities.caseId, c.id)));
      if (!activity) continue;
      // the engine on submission (kind.ts request, send, answered)
      const query = {
        share_code: s.shareCode,
        date_of_birth: person.dob,
        company_name: customer?.name ?? '',
        applicant: { forename: s.forename, surname: s.surname },
      };
      const answer = await simulator.checkShareCode(query, signal);
      const mapped = mapShareCodeAnswer(answer, s.shareCode, clock.now());
      const at = clock.now().toISOString();
      let processing: ProcessingData = {
        ...initialProcessingData('home-office-rtw', `kestrel-ca-${activity.id}`),
        reference: answer.check_reference,
      };
      processing = withEvent(processing, {
        at,
        type: 'request',
        body: { share_code: maskIdentifier(query.share_code), company_name: query.company_name },
      });
      processing = withEvent(processing, { at, type: 'answer', body: { ...answer } });
      await tx
        .update(caseActivities)
        .set({
          state: mapped.state,
          resultData: ACTIVITY_KINDS.rtw.result.parse(mapped.resultData),
          processingData: processing,
          completedAt: mapped.state === 'ca-complete' ? clock.now() : null,
          updatedAt: clock.now(),
        })
        .where(eq(caseActivities.id, activity.id));
      await recordRtwDetails(service, key, {
        method: 'share-code',
        outcome: answer.status,
        followUp: mapped.resultData.follow_up_date ?? null,
        checkedBy: HOME_OFFICE_CHECKER,
      });
      await tx
        .update(cases)
        .set({ state: deriveCaseState([mapped.state]) })
        .where(and(eq(cases.customerId, customerId), eq(cases.id, c.id)));
    }
  }
}
