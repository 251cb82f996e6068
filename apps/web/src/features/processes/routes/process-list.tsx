import { formatDate } from '@kestrel/domain';
import { Badge, Button, Group, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { type Process, processes } from '../../../api/processes';
import { ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';

export default function ProcessList() {
  const { can } = useRights();
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1}>Processes</Title>
        {can('processes.add_process') && (
          <Button component={Link} to={href('process-add')}>
            Add process
          </Button>
        )}
      </Group>
      <ResourceTable<Process>
        resource={processes}
        rowHref={(p) => href('process', { id: p.id })}
        empty={{
          title: 'No processes yet',
          text: 'A process is the set of checks a case runs. Add one before you open your first case.',
          action: can('processes.add_process') ? (
            <Button component={Link} to={href('process-add')} size="sm">
              Add your first process
            </Button>
          ) : undefined,
        }}
        filters={[
          {
            name: 'is_active',
            label: 'Status',
            options: [
              { value: 'true', label: 'Active' },
              { value: 'false', label: 'Inactive' },
            ],
          },
        ]}
        columns={[
          { key: 'name', header: 'Name', render: (p) => p.name },
          { key: 'checks', header: 'Checks', render: (p) => p.requirements.length },
          {
            key: 'active',
            header: 'Status',
            render: (p) => (
              <Badge variant="light" color={p.is_active ? 'teal' : 'gray'}>
                {p.is_active ? 'Active' : 'Inactive'}
              </Badge>
            ),
          },
          { key: 'created', header: 'Created', render: (p) => formatDate(p.created_at) },
        ]}
      />
    </Stack>
  );
}
