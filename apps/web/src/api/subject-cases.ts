import { isCaseOpen, type SubjectCaseOut } from '@kestrel/domain';
import { defineResource } from './resource';

/**
 * The signed-in subject's cases across every customer that holds them (contract:
 * subjectCaseOut): GET /api/s/cases/ (paginated) and GET /api/s/cases/{id}/.
 */
export type SubjectCase = SubjectCaseOut;

export const subjectCases = defineResource<SubjectCase>('/api/s/cases/', {
  item: 'case',
  plural: 'cases',
});

/** The dashboard shows every case on one page; a person rarely has more than a few. */
export const SUBJECT_DASHBOARD_PARAMS = { page_size: 100 } as const;
export const SUBJECT_CASES_PAGE_SIZE = 20;

/**
 * A case the person can still work on: the server gives it a next step (its portal, before it is
 * submitted; a top-up to pay, after) while it is open.
 */
export const isCaseToDo = (c: Pick<SubjectCase, 'next_step' | 'state'>) =>
  c.next_step !== null && isCaseOpen(c.state);
