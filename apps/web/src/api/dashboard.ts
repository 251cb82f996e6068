import type { DashboardOut, WeekCountOut } from '@kestrel/domain';
import { queryOptions } from '@tanstack/react-query';
import { notify } from '../lib/notify';
import { request } from './client';
import { failureMessage } from './messages';
import { resourceKeys } from './resource';

/** GET /api/dashboard/ (contract: dashboardOut). */
export type Dashboard = DashboardOut;
export type WeekCount = WeekCountOut;

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
