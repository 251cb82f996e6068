import { hasResultAudience, type PortalActivityOut } from '@kestrel/domain';
import { lazy, Suspense } from 'react';

/** What the subject's result view receives: the case and the activity it shows. */
export interface SubjectResultPanelProps {
  caseId: number;
  activity: Omit<PortalActivityOut, 'config'>;
}

/**
 * The subject's restricted result views come from the result-panel registry
 * (features/results/registry.tsx: each kind's `subject` view), loaded lazily in one chunk the
 * first time a case shows a kind the domain lets the subject see.
 */
const SubjectActivityResult = lazy(() =>
  import('../results').then((m) => ({ default: m.SubjectActivityResult })),
);

/** Where a check's result shows on the subject's case detail (nothing for a kind without a view). */
export function SubjectResultSlot({ caseId, activity }: SubjectResultPanelProps) {
  if (!hasResultAudience(activity.activity_type.code, 'subject')) return null;
  return (
    <Suspense fallback={null}>
      <SubjectActivityResult caseId={caseId} activity={activity} />
    </Suspense>
  );
}
