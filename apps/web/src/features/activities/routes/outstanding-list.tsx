import { Stack, Text, Title } from '@mantine/core';
import { type Activity, outstandingActivities } from '../../../api/activities';
import { ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { activityColumns, useActivityFilters } from '../components/activity-columns';

export default function OutstandingList() {
  const filters = useActivityFilters(['ca-awaiting-agent', 'ca-pending-activity-decision']);
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Outstanding activities</Title>
        <Text c="dimmed">Checks waiting for your organisation, oldest first.</Text>
      </Stack>
      <ResourceTable<Activity>
        resource={outstandingActivities}
        columns={activityColumns('Waiting since')}
        filters={filters}
        rowHref={(a) => href('outstanding-activity', { id: a.id })}
      />
    </Stack>
  );
}
