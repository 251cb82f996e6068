import type { CaseActivityState, KnowledgeTestResultData } from '@kestrel/domain';
import type { TestInvitation } from '../../../providers/test-platform/provider.js';

/**
 * The platform's invitation (an answer, a read or a callback) as the activity's state and
 * result_data: invited, the activity stays in progress with the subject's link; completed, it is
 * complete with the result (a fail too: the customer decides on the case); expired, it needs a
 * decision.
 */
export function mapInvitation(
  inv: TestInvitation,
  before: KnowledgeTestResultData,
): { state: CaseActivityState; resultData: KnowledgeTestResultData; tracking: boolean } {
  const base: KnowledgeTestResultData = {
    ...before,
    test_url: inv.test_url,
    invited_at: inv.invited_at,
    method: 'online',
  };
  const r = inv.result;
  if (inv.status === 'completed' && r) {
    return {
      state: 'ca-complete',
      tracking: false,
      resultData: {
        ...base,
        passed: r.passed,
        percentage: r.percentage,
        points_scored: r.points_scored,
        points_available: r.points_available,
        started_at: r.time_started,
        completed_at: r.time_finished,
        duration_seconds: r.duration_seconds,
        intro: r.intro,
        categories: r.category_results.map((c) => ({
          name: c.name,
          percentage: c.percentage,
          points_scored: c.points_scored,
          points_available: c.points_available,
        })),
        results_url: r.results_url,
      },
    };
  }
  if (inv.status === 'expired') {
    return { state: 'ca-pending-activity-decision', tracking: false, resultData: base };
  }
  return { state: 'ca-in-progress', tracking: true, resultData: base };
}
