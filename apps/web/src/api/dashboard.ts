import { queryOptions } from '@tanstack/react-query';
import { notify } from '../lib/notify';
import { request } from './client';
import { failureMessage } from './messages';
import { resourceKeys } from './resource';

export interface WeekCount {
  week_start: string;
  count: number;
}

export interface Dashboard {
  cases_by_state: Record<string, number>;
  open_cases: number;
  outstanding_activities: number;
  flagged_cases: number;
  active_flags: number;
  completed_by_week: WeekCount[];
  recent_audit: {
    id: number;
    actor_type: string | null;
    actor_name: string;
    verb: string;
    content_type: string;
    object_repr: string;
    created_at: string;
  }[];
}

export const dashboardKeys = resourceKeys('/api/dashboard/');

/** The customer's dashboard figures (null when they could not be read; the failure is toasted). */
export const dashboardOptions = () =>
  queryOptions({
    queryKey: dashboardKeys.all,
    queryFn: async () => {
      const r = await request<Dashboard>('GET', '/api/dashboard/', { expect: 200 });
      if (r.ok) return r.data;
      const message = failureMessage(r, { action: 'retrieve', name: 'dashboard' });
      if (message) notify.error(message);
      return null;
    },
  });
