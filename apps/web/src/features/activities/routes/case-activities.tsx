import { Stack, Text, Title } from '@mantine/core';
import { type Activity, caseActivities } from '../../../api/activities';
import { ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { activityColumns, useActivityFilters } from '../components/activity-columns';

export default function CaseActivities() {
  const filters = useActivityFilters();
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Case activities</Title>
        <Text c="dimmed">Every check across your cases.</Text>
      </Stack>
      <ResourceTable<Activity>
        resource={caseActivities}
        columns={activityColumns('Updated')}
        filters={filters}
        rowHref={(a) => href('case-detail', { id: a.case.id })}
      />
    </Stack>
  );
}
