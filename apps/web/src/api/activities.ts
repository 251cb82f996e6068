import type { ActivityConfig } from '@kestrel/domain';
import { defineResource } from './resource';

export interface Activity {
  id: number;
  case: {
    id: number;
    state: string;
    subject: { id: number; first_name: string; last_name: string; email: string };
    /** Every activity of the case, in brief (this one included). */
    case_activities: {
      id: number;
      state: string;
      state_display: string;
      activity_type: string;
      activity_type_name: string;
    }[];
  };
  state: string;
  state_display: string;
  activity_type: string;
  activity_type_name: string;
  key: string;
  config: ActivityConfig;
  result_data: Record<string, unknown> | null;
  processing_data: Record<string, unknown> | null;
  notes: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** The customer whose case it is (ops lists show it). */
  customer: number;
  customer_name: string;
}

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
