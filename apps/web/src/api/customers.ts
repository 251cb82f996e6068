import type { CustomerOut } from '@kestrel/domain';
import { defineResource } from './resource';

/** A customer organisation as operations staff list them (contract: customerOut). */
export type OpsCustomer = CustomerOut;

export const opsCustomers = defineResource<OpsCustomer>('/api/ops/customers/', {
  item: 'customer',
  plural: 'customers',
});

/** Every customer by name, for the customer picker and the ops filters (one cached list). */
export const customerChoices = () => opsCustomers.listOptions({ page_size: 100, ordering: 'name' });
