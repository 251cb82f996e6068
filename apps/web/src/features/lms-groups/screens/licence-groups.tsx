import { formatDate } from '@kestrel/domain';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { type LicenceGroup, licenceGroups } from '../api';
import { PublishedBadge } from '../components/licence-status-badge';

/** /licence-groups: the council's licence groups with their sub-groups and licences counted. */
export default function LicenceGroups() {
  const { can } = useRights();
  const mayAdd = can('lms_definitions.add_definition');
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Stack gap={4}>
          <Title order={1}>Licence groups</Title>
          <Text size="sm" c="dimmed">
            The areas your council licenses, such as taxi and private hire, each divided into
            sub-groups of licence types.
          </Text>
        </Stack>
        {mayAdd && (
          <Button component={Link} to={href('licence-group-add')}>
            Add licence group
          </Button>
        )}
      </Group>
      <ResourceTable<LicenceGroup>
        resource={licenceGroups}
        searchable={false}
        rowHref={(g) => href('licence-group', { id: g.id })}
        empty={{
          title: 'No licence groups yet',
          text: 'Add a group, such as taxi and private hire, then its sub-groups and their licence definitions.',
          action: mayAdd ? (
            <Button component={Link} to={href('licence-group-add')} size="sm">
              Add your first licence group
            </Button>
          ) : undefined,
        }}
        columns={[
          { key: 'name', header: 'Name', render: (g) => g.name },
          {
            key: 'published',
            header: 'Public pages',
            render: (g) => <PublishedBadge isPublished={g.is_published} />,
          },
          { key: 'sub_groups', header: 'Sub-groups', render: (g) => g.sub_group_count },
          { key: 'licences', header: 'Licences', render: (g) => g.licence_count },
          { key: 'updated', header: 'Updated', render: (g) => formatDate(g.updated_at) },
        ]}
      />
    </Stack>
  );
}
