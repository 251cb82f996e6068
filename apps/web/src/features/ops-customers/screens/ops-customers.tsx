import type { CustomerOut } from '@kestrel/domain';
import { formatDate } from '@kestrel/domain';
import { Badge, Button, Group, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { Can } from '../../../lib/rights';
import { BRAND_NAMES, opsCustomers } from '../api';

/** Every customer: search, active and demo filters, its cases and users counted. */
export default function OpsCustomers() {
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1}>Customers</Title>
        <Can permission="customers.add_customer">
          <Button component={Link} to={href('ops:customer-add')}>
            Add customer
          </Button>
        </Can>
      </Group>
      <ResourceTable<CustomerOut>
        resource={opsCustomers}
        params={{ ordering: 'name' }}
        caption="Customers"
        rowHref={(c) => href('ops:customer', { id: c.id })}
        filters={[
          {
            name: 'is_active',
            label: 'Status',
            options: [
              { value: 'true', label: 'Active' },
              { value: 'false', label: 'Inactive' },
            ],
          },
          {
            name: 'demo_mode',
            label: 'Demo mode',
            options: [
              { value: 'true', label: 'Demo' },
              { value: 'false', label: 'Live' },
            ],
          },
        ]}
        empty={{ title: 'No customers yet', text: 'Add the first customer to start its checks.' }}
        columns={[
          {
            key: 'name',
            header: 'Name',
            ordering: 'name',
            render: (c) => (
              <Group gap="xs" wrap="nowrap">
                <span>{c.name}</span>
                {c.demo_mode && (
                  <Badge size="sm" color="yellow" variant="light">
                    Demo
                  </Badge>
                )}
                {!c.is_active && (
                  <Badge size="sm" color="gray" variant="light">
                    Inactive
                  </Badge>
                )}
              </Group>
            ),
          },
          { key: 'brand', header: 'Brand', render: (c) => BRAND_NAMES[c.brand] },
          { key: 'cases', header: 'Cases', render: (c) => c.case_count },
          { key: 'users', header: 'Users', render: (c) => c.user_count },
          {
            key: 'created',
            header: 'Added',
            ordering: 'created_at',
            render: (c) => formatDate(c.created_at),
          },
        ]}
      />
    </Stack>
  );
}
