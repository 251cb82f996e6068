import { CASE_ACTIVITY_STATE_LABELS } from '@kestrel/domain';
import { Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type Activity, opsOutstandingActivities } from '../../../api/activities';
import { customerChoices } from '../../../api/customers';
import { type Column, ResourceTable, type SelectFilter } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { activityColumns } from '../components/activity-columns';

/**
 * The states in which a check waits for operations (the server's OPS_OUTSTANDING_STATES), and
 * 'ca-awaiting-agent' for the standard and enhanced checks waiting for a countersignature.
 */
const OPS_STATES = ['ca-awaiting-ops', 'ca-error-initiating', 'ca-awaiting-agent'] as const;

const customerColumn: Column<Activity> = {
  key: 'customer',
  header: 'Customer',
  render: (a) => a.customer_name,
};

/** Operations' queue: checks of every customer waiting for ops staff, oldest first. */
export default function OpsOutstandingList() {
  const customers = useQuery({ ...customerChoices(), select: (page) => page.results });
  const filters: SelectFilter[] = [
    {
      name: 'customer',
      label: 'Customer',
      options: (customers.data ?? []).map((c) => ({ value: String(c.id), label: c.name })),
    },
    {
      name: 'state',
      label: 'State',
      options: OPS_STATES.map((s) => ({ value: s, label: CASE_ACTIVITY_STATE_LABELS[s] })),
    },
  ];
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Outstanding activities</Title>
        <Text c="dimmed">Checks of every customer waiting for operations, oldest first.</Text>
      </Stack>
      <ResourceTable<Activity>
        resource={opsOutstandingActivities}
        columns={[customerColumn, ...activityColumns('Waiting since', false)]}
        filters={filters}
        rowHref={(a) => href('ops:outstanding-activity', { id: a.id })}
      />
    </Stack>
  );
}
