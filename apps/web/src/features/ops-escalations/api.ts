import type { EscalationOut, EscalationStatus } from '@kestrel/domain';
import { queryOptions } from '@tanstack/react-query';
import { request } from '../../api/client';

/** One escalation of GET /api/ops/escalations/ (contract: escalationOut). */
export type Escalation = EscalationOut;

export const ESCALATIONS_PATH = '/api/ops/escalations/';
export const ESCALATIONS_PAGE_SIZE = 25;

export interface EscalationQuery {
  status: EscalationStatus;
  /** A customer's id, '' for every customer. */
  customer: string;
  page: number;
}

/** Escalated checks, open first and newest escalation first; null when the list failed. */
export const escalationsOptions = (q: EscalationQuery) =>
  queryOptions({
    queryKey: [ESCALATIONS_PATH, q.status, q.customer, q.page],
    queryFn: async () => {
      const r = await request<{ count: number; results: Escalation[] }>('GET', ESCALATIONS_PATH, {
        params: {
          page: q.page,
          page_size: ESCALATIONS_PAGE_SIZE,
          status: q.status,
          ...(q.customer ? { customer: q.customer } : {}),
        },
        expect: 200,
      });
      return r.ok ? r.data : null;
    },
  });
