import type { OpsDashboardOut } from '@kestrel/domain';
import { queryOptions } from '@tanstack/react-query';
import { request } from '../../api/client';
import { failureMessage } from '../../api/messages';
import type { QueryParams } from '../../api/query-string';
import { href } from '../../config/paths';
import { notify } from '../../lib/notify';

/** GET /api/ops/dashboard/ (contract: opsDashboardOut). */
export type OpsDashboard = OpsDashboardOut;

/** Operations' dashboard figures (null when they could not be read; the failure is toasted). */
export const opsDashboardOptions = () =>
  queryOptions({
    queryKey: ['/api/ops/dashboard/'],
    queryFn: async () => {
      const r = await request<OpsDashboard>('GET', '/api/ops/dashboard/', { expect: 200 });
      if (r.ok) return r.data;
      const message = failureMessage(r, { action: 'retrieve', name: 'dashboard' });
      if (message) notify.error(message);
      return null;
    },
  });

/** The outstanding list behind a figure: its filters in the URL. */
export const queueHref = (filters: QueryParams = {}) =>
  href('ops:outstanding-activities', {}, filters);
