import type { ExpiryCalendarOut, ExpiryKind } from '@kestrel/domain';
import { queryOptions } from '@tanstack/react-query';
import { request } from '../../api/client';
import { buildQuery } from '../../api/query-string';

export const EXPIRY_PATH = '/api/expiry-calendar/';

export interface ExpiryFilters {
  days: number;
  kind: ExpiryKind | '';
  search: string;
}

const params = (f: ExpiryFilters) => ({
  days: f.days,
  ...(f.kind ? { kind: f.kind } : {}),
  ...(f.search ? { search: f.search } : {}),
});

/** The calendar under these filters; null when the call failed. */
export const expiryOptions = (f: ExpiryFilters) =>
  queryOptions({
    queryKey: [EXPIRY_PATH, f],
    queryFn: async () => {
      const r = await request<ExpiryCalendarOut>('GET', EXPIRY_PATH, {
        params: params(f),
        expect: 200,
      });
      return r.ok ? r.data : null;
    },
  });

/** The CSV export's address under the same filters. */
export const exportHref = (f: ExpiryFilters) => `${EXPIRY_PATH}export/${buildQuery(params(f))}`;
