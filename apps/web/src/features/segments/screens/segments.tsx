import { formatDate } from '@kestrel/domain';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { type Segment, segments } from '../api';
import { placeOf } from '../components/segment-fields';

/** /segments: the organisation's segments with their counts of users and processes. */
export default function Segments() {
  const { can } = useRights();
  const mayAdd = can('segments.add_segment');
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Stack gap={4}>
          <Title order={1}>Segments</Title>
          <Text size="sm" c="dimmed">
            Sites, departments or regions of your organisation. Staff limited to segments see only
            the cases of their segments' processes.
          </Text>
        </Stack>
        {mayAdd && (
          <Button component={Link} to={href('segment-add')}>
            Add segment
          </Button>
        )}
      </Group>
      <ResourceTable<Segment>
        resource={segments}
        rowHref={(s) => href('segment', { id: s.id })}
        empty={{
          title: 'No segments yet',
          text: 'Divide your organisation into segments to give staff the cases of their own site or department only.',
          action: mayAdd ? (
            <Button component={Link} to={href('segment-add')} size="sm">
              Add your first segment
            </Button>
          ) : undefined,
        }}
        columns={[
          { key: 'name', header: 'Name', render: (s) => s.name },
          { key: 'employer', header: 'Employer name', render: (s) => s.employer_name || '—' },
          { key: 'place', header: 'Town', render: placeOf },
          { key: 'users', header: 'Users', render: (s) => s.user_count },
          { key: 'processes', header: 'Processes', render: (s) => s.process_count },
          { key: 'created', header: 'Created', render: (s) => formatDate(s.created_at) },
        ]}
      />
    </Stack>
  );
}
