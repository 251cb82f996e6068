import type { PortalActivityOut } from '@kestrel/domain';
import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react';

/** What a subject result panel receives: the case and the activity it shows. */
export interface SubjectResultPanelProps {
  caseId: number;
  activity: Omit<PortalActivityOut, 'config'>;
}

type Panel = LazyExoticComponent<ComponentType<SubjectResultPanelProps>>;

/**
 * The subject's restricted result views plug in here, one per activity code, each loaded
 * lazily (its own chunk, fetched only when a case shows that check), e.g.
 *   'dbs-basic': lazy(() => import('../checks/subject/dbs-result')),
 * A code without a panel shows nothing beyond the activity's state.
 */
/** Declared so the panels' modules type-check against this slot. */
export const subjectResultPanel = (
  load: () => Promise<{ default: ComponentType<SubjectResultPanelProps> }>,
) => lazy(load);

/** The criminal-record family's restricted panels (one shared chunk, features/results). */
const criminalRecordPanel = subjectResultPanel(() => import('../results/subject-result-panel'));

export const SUBJECT_RESULT_PANELS: Partial<Record<string, Panel>> = {
  'dbs-basic': criminalRecordPanel,
  'dbs-standard': criminalRecordPanel,
  'dbs-enhanced': criminalRecordPanel,
  'dbs-update': criminalRecordPanel,
  'adult-first': criminalRecordPanel,
};

/** Where a check's result panel shows on the subject's case detail (nothing until one exists). */
export function SubjectResultSlot({ caseId, activity }: SubjectResultPanelProps) {
  const Panel = SUBJECT_RESULT_PANELS[activity.activity_type.code];
  if (!Panel) return null;
  return (
    <Suspense fallback={null}>
      <Panel caseId={caseId} activity={activity} />
    </Suspense>
  );
}
