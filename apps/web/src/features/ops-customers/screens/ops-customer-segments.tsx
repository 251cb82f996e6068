import { type CustomerOut, formatDate, type SegmentOut } from '@kestrel/domain';
import { Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { defineResource } from '../../../api/resource';
import { ResourceTable } from '../../../components/resource-table';
import { CustomerFrame } from '../components/customer-frame';

function Segments({ customer }: { customer: CustomerOut }) {
  const resource = useMemo(
    () =>
      defineResource<SegmentOut>(`/api/ops/customers/${customer.id}/segments/`, {
        item: 'segment',
        plural: 'segments',
      }),
    [customer.id],
  );
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        The customer's administrators divide their organisation into segments; operations see them
        here as they are.
      </Text>
      <ResourceTable<SegmentOut>
        resource={resource}
        empty={{
          title: 'No segments',
          text: 'This customer has not divided its organisation into segments.',
        }}
        columns={[
          { key: 'name', header: 'Name', render: (s) => s.name },
          { key: 'employer', header: 'Employer name', render: (s) => s.employer_name || '—' },
          {
            key: 'place',
            header: 'Town',
            render: (s) => [s.town, s.postcode].filter(Boolean).join(', ') || '—',
          },
          { key: 'users', header: 'Users', render: (s) => s.user_count },
          { key: 'processes', header: 'Processes', render: (s) => s.process_count },
          { key: 'created', header: 'Created', render: (s) => formatDate(s.created_at) },
        ]}
      />
    </Stack>
  );
}

/** The customer's segments, read-only (the customer's administrators manage them). */
export default function OpsCustomerSegments() {
  return <CustomerFrame>{(c) => <Segments customer={c} />}</CustomerFrame>;
}
