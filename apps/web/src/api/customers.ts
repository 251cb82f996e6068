import { defineResource } from './resource';

/** A customer organisation as operations staff list them. */
export interface OpsCustomer {
  id: number;
  name: string;
}

export const opsCustomers = defineResource<OpsCustomer>('/api/ops/customers/', {
  item: 'customer',
  plural: 'customers',
});

/** Every customer by name, for the customer picker and the ops filters (one cached list). */
export const customerChoices = () => opsCustomers.listOptions({ page_size: 100, ordering: 'name' });
