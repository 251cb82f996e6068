import type { CaseActivityListItemOut } from '@kestrel/domain';
import { defineResource } from './resource';

/** An activity as the lists and details return it (contract: caseActivityListItemOut). */
export type Activity = CaseActivityListItemOut;

const names = { item: 'case activity', plural: 'case activities' };
export const caseActivities = defineResource<Activity>('/api/case-activities/', names);
export const outstandingActivities = defineResource<Activity>('/api/outstanding-activities/', {
  item: 'outstanding activity',
  plural: 'outstanding activities',
});

/** Activities waiting for operations, across customers (ops staff). */
export const opsOutstandingActivities = defineResource<Activity>(
  '/api/ops/outstanding-activities/',
  { item: 'outstanding activity', plural: 'outstanding activities' },
);
