import type { PricebookCreate, PricebookOut, QuoteOut } from '@kestrel/domain';
import { useQuery } from '@tanstack/react-query';
import { type ApiResult, request } from '../../api/client';

const base = (customerId: string) => `/api/ops/customers/${customerId}/pricebooks/`;

function unwrap<T>(r: ApiResult<T>): T {
  if (!r.ok) throw new Error(typeof r.data.detail === 'string' ? r.data.detail : 'Request failed');
  return r.data;
}

/** GET /api/ops/customers/{id}/pricebooks/ (the latest start first). */
export function usePricebooks(customerId: string) {
  return useQuery({
    queryKey: ['ops-pricebooks', customerId],
    queryFn: async () =>
      unwrap(await request<{ results: PricebookOut[] }>('GET', base(customerId))).results,
  });
}

export function usePricebook(customerId: string, pbId: string) {
  return useQuery({
    queryKey: ['ops-pricebooks', customerId, pbId],
    queryFn: async () => unwrap(await request<PricebookOut>('GET', `${base(customerId)}${pbId}/`)),
  });
}

/** POST (no pbId) or PATCH a pricebook: the API's answer, refusals included. */
export function savePricebook(
  customerId: string,
  pbId: string | null,
  body: PricebookCreate,
): Promise<ApiResult<PricebookOut>> {
  return pbId === null
    ? request<PricebookOut>('POST', base(customerId), { body })
    : request<PricebookOut>('PATCH', `${base(customerId)}${pbId}/`, { body });
}

/** GET /api/pricebooks/quote/?process=: what a case of the process will cost. */
export function useQuote(processId: string) {
  return useQuery({
    queryKey: ['pricebook-quote', processId],
    enabled: processId !== '',
    queryFn: async () =>
      unwrap(
        await request<QuoteOut>('GET', '/api/pricebooks/quote/', {
          params: { process: processId },
        }),
      ),
  });
}
