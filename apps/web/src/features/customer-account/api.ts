import type { CustomerAccountOut, CustomerAccountUpdate } from '@kestrel/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../api/client';
import { unwrap } from '../../components/form-kit';

/** The organisation's account (contract: customerAccountOut). */
export type CustomerAccount = CustomerAccountOut;

export const CUSTOMER_ACCOUNT_KEY = ['customer-account'] as const;

/** GET /api/customer-account/. */
export const customerAccountOptions = () =>
  queryOptions({
    queryKey: CUSTOMER_ACCOUNT_KEY,
    queryFn: async () =>
      unwrap(await request<CustomerAccount>('GET', '/api/customer-account/', { expect: 200 })),
  });

/** PATCH /api/customer-account/ (details or the two-factor policy); the answer is kept. */
export function useSaveCustomerAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: CustomerAccountUpdate) =>
      unwrap(
        await request<CustomerAccount>('PATCH', '/api/customer-account/', { body, expect: 200 }),
      ),
    onSuccess: (saved) => client.setQueryData(CUSTOMER_ACCOUNT_KEY, saved),
  });
}
