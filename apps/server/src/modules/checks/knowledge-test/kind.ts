import {
  ACTIVITY_KINDS,
  type ProcessingData,
  readResultData,
  subjectKnowledgeTestData,
} from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import type { ServiceContext } from '../../../platform/service-context.js';
import {
  type KnowledgeTestProvider,
  type TestInvitation,
  type TestInvitationRequest,
  testInvitationSchema,
} from '../../../providers/test-platform/provider.js';
import { cases } from '../../cases/cases.table.js';
import { subjects } from '../../subjects/subjects.table.js';
import { saveActivity } from '../activity.js';
import { defineKind, type LockedActivity } from '../kind.js';
import { sendTestInvitation } from './invitation-email.js';
import { knowledgeTestRoutes } from './paper-result.js';
import { testPlatformProvider } from './providers.js';
import { mapInvitation } from './result.js';

/*
 * The knowledge test: on the subject's submission the engine invites the subject to the online
 * test platform's test; the link goes to the subject by email (the outbox) and shows on the
 * subject's case page while the activity is in progress; the platform's signed callback (or the
 * engine's poll) brings the result: pass or fail, percentage, completion time, intro info,
 * categories and the link to the full results. A test taken on paper is recorded by operations
 * (paper-result.ts).
 */

/** The platform's test Kestrel's subjects take. */
export const DEFAULT_TEST_ID = 'kestrel-knowledge-test';

interface KnowledgeTestStart {
  invitation: TestInvitationRequest;
  /** The site the subject's links are on (the engine's public address). */
  site: string;
  caseId: number;
  customerId: number;
}

/** The result of an invitation, saved on the activity (its reference the invitation's id). */
async function applyInvitation(
  ctx: ServiceContext,
  a: LockedActivity,
  processing: ProcessingData,
  inv: TestInvitation,
) {
  const before = readResultData('knowledge-test', a.row.resultData);
  const mapped = mapInvitation(inv, before);
  const { activity } = await saveActivity(
    ctx,
    a,
    { ...processing, reference: inv.invitation_id, last_error: null },
    { state: mapped.state, resultData: a.kind.resultSchema.parse(mapped.resultData) },
  );
  return { row: activity, tracking: mapped.tracking };
}

export const knowledgeTestKind = defineKind<
  KnowledgeTestProvider,
  KnowledgeTestStart,
  TestInvitation,
  TestInvitation,
  'knowledge-test'
>({
  code: 'knowledge-test',
  provider: testPlatformProvider,
  trigger: 'submission',
  resultSchema: ACTIVITY_KINDS['knowledge-test'].result,
  async request(tx, a, env) {
    const [s] = await tx
      .select({ first: subjects.firstName, last: subjects.lastName, email: subjects.email })
      .from(cases)
      .innerJoin(
        subjects,
        and(eq(subjects.customerId, cases.customerId), eq(subjects.id, cases.subjectId)),
      )
      .where(eq(cases.id, a.row.caseId));
    if (!s?.email) return null;
    return {
      invitation: {
        reference: a.processing?.idempotency_key ?? `kestrel-ca-${a.row.id}`,
        test_id: DEFAULT_TEST_ID,
        callback_url: env.callbackUrl,
        candidate: { first_name: s.first, last_name: s.last, email: s.email },
      },
      site: new URL(env.callbackUrl).origin,
      caseId: a.row.caseId,
      customerId: a.row.customerId,
    };
  },
  // the invitation without the candidate's email
  logged: (r) => ({
    reference: r.invitation.reference,
    test_id: r.invitation.test_id,
    candidate: { first_name: r.invitation.candidate.first_name },
  }),
  send: (p, r, call) => p.invite(r.invitation, call.signal),
  async answered(ctx, a, processing, request, answer) {
    const applied = await applyInvitation(ctx, a, processing, answer);
    if (answer.status === 'invited') {
      await sendTestInvitation(ctx, {
        site: request.site,
        to: request.invitation.candidate.email,
        firstName: request.invitation.candidate.first_name,
        customerId: request.customerId,
        caseId: request.caseId,
        testUrl: answer.test_url,
      });
    }
    return applied;
  },
  tracking: {
    status: (p, reference, call) => p.invitation(reference, call.signal),
    update: testInvitationSchema,
    apply: (ctx, a, processing, update) => applyInvitation(ctx, a, processing, update),
  },
  // operations' pass or fail for a test taken on paper (paper-result.ts)
  routes: knowledgeTestRoutes,
  // no staff names (who recorded a paper result): the domain's subjectKnowledgeTestData
  subjectView: (resultData) =>
    subjectKnowledgeTestData(readResultData('knowledge-test', resultData)),
});
