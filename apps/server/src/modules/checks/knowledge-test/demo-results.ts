import {
  ACTIVITY_KINDS,
  initialProcessingData,
  type ProcessingData,
  withEvent,
} from '@kestrel/domain';
import { and, asc, eq } from 'drizzle-orm';
import { createCase, createProcess } from '../../../db/factories.js';
import { ManualClock } from '../../../platform/clock.js';
import type { DemoSeedContext } from '../../../platform/module.js';
import { caseActivities } from '../../activities/activities.table.js';
import { subjects } from '../../subjects/subjects.table.js';
import { DEFAULT_TEST_ID } from './kind.js';
import { testPlatformProvider } from './providers.js';
import { mapInvitation } from './result.js';

const DAY = 86_400_000;

/** The demo's knowledge tests: the simulator's tag (README) and the days since the invitation. */
const TESTS = [
  { tag: '', invitedDaysAgo: 9, state: 'ca-complete' },
  { tag: '+kt-fail', invitedDaysAgo: 6, state: 'ca-complete' },
  { tag: '+kt-never', invitedDaysAgo: 2, state: 'ca-in-progress' },
] as const;

/** The subject's email with the simulator's tag before its '@'. */
const tagged = (email: string, tag: string) => email.replace('@', `${tag}@`);

/**
 * Knowledge tests for both customers, recorded from a run of the test platform's simulator (as
 * the engine runs it: the invitation, then its read a simulated day later, through the kind's
 * own mapping): one passed, one failed, one invited and not yet completed ('This knowledge test
 * has not yet been completed').
 */
export async function seedKnowledgeTestResults(ctx: DemoSeedContext): Promise<void> {
  const { tx } = ctx;
  const now = ctx.clock.now().getTime();
  const signal = new AbortController().signal;
  for (const customerId of Object.values(ctx.customers)) {
    const process = await createProcess(tx, {
      customerId,
      name: 'Driver knowledge test',
      description: 'The council knowledge test for private hire drivers.',
      requirements: ['knowledge-test'],
    });
    const people = await tx
      .select({
        id: subjects.id,
        first: subjects.firstName,
        last: subjects.lastName,
        email: subjects.email,
      })
      .from(subjects)
      .where(eq(subjects.customerId, customerId))
      .orderBy(asc(subjects.id))
      .offset(4)
      .limit(TESTS.length);
    for (const [i, t] of TESTS.entries()) {
      const p = people[i];
      if (!p) continue;
      const invitedAt = now - t.invitedDaysAgo * DAY;
      const clock = new ManualClock(new Date(invitedAt));
      const simulator = testPlatformProvider.simulator({
        clock,
        signingClock: clock,
        callbackSecret: 'demo-seed',
        dayMs: DAY,
      });
      const c = await createCase(tx, {
        customerId,
        processId: process.id,
        subjectId: p.id,
        activityStates: [t.state],
        createdAt: new Date(invitedAt - 3_600_000),
      });
      const [a] = await tx
        .select({ id: caseActivities.id })
        .from(caseActivities)
        .where(and(eq(caseActivities.customerId, customerId), eq(caseActivities.caseId, c.id)));
      if (!a) continue;
      const reference = `kestrel-ca-${a.id}`;
      const invited = await simulator.invite(
        {
          reference,
          test_id: DEFAULT_TEST_ID,
          callback_url: '',
          candidate: { first_name: p.first, last_name: p.last, email: tagged(p.email, t.tag) },
        },
        signal,
      );
      clock.set(new Date(Math.min(now, invitedAt + 2 * DAY)));
      const read = await simulator.invitation(invited.invitation_id, signal);
      const mapped = mapInvitation(read, mapInvitation(invited, {}).resultData);
      const at = (d: Date) => d.toISOString();
      let processing: ProcessingData = {
        ...initialProcessingData(testPlatformProvider.name, reference),
        reference: invited.invitation_id,
      };
      processing = withEvent(processing, {
        at: at(new Date(invitedAt)),
        type: 'request',
        body: { reference, test_id: DEFAULT_TEST_ID, candidate: { first_name: p.first } },
      });
      processing = withEvent(processing, {
        at: at(new Date(invitedAt)),
        type: 'answer',
        body: { ...invited },
      });
      processing = withEvent(processing, { at: at(clock.now()), type: 'poll', body: { ...read } });
      // the case was made in the state the simulator's README gives this tag
      if (mapped.state !== t.state) throw new Error(`knowledge test demo: ${mapped.state}`);
      await tx
        .update(caseActivities)
        .set({
          resultData: ACTIVITY_KINDS['knowledge-test'].result.parse(mapped.resultData),
          processingData: processing,
          completedAt: t.state === 'ca-complete' ? new Date(invitedAt + DAY) : null,
          updatedAt: clock.now(),
        })
        .where(eq(caseActivities.id, a.id));
    }
  }
}
