import type { SubjectActivityResultOut } from '@kestrel/domain';
import { Skeleton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../api/client';
import { ActivityResult } from './activity-result';
import { hasResultPanel } from './registry';

/** What the subject's case page gives a result panel (its SubjectResultSlot). */
export interface SubjectResultProps {
  caseId: number;
  activity: { id: number; state: string; activity_type: { code: string } };
}

/**
 * The subject's restricted result view of one activity: reads GET /api/s/case-activities/{id}/result/
 * (no processing data, notes or other people's names) and shows the kind's panel with the
 * subject audience. For the subject case page's slot:
 *   'dbs-enhanced': subjectResultPanel(() => import('../results/subject-result-panel')),
 */
export default function SubjectResultPanel({ caseId, activity }: SubjectResultProps) {
  const code = activity.activity_type.code;
  const result = useQuery({
    queryKey: ['/api/s/case-activities/', 'result', activity.id],
    enabled: hasResultPanel(code),
    queryFn: async () => {
      const r = await request<SubjectActivityResultOut>(
        'GET',
        `/api/s/case-activities/${activity.id}/result/`,
      );
      if (!r.ok) throw new Error('Error retrieving case activity');
      return r.data;
    },
  });
  if (!hasResultPanel(code) || result.isError) return null;
  if (!result.data) return <Skeleton h={80} />;
  return (
    <ActivityResult
      audience="subject"
      family="subject"
      activity={{
        id: activity.id,
        state: result.data.state,
        activity_type: code,
        result_data: result.data.result_data,
        case: caseId,
      }}
    />
  );
}
