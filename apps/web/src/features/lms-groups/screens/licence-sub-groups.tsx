import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import type { LicenceGroup } from '../api';
import { GroupFrame } from '../components/group-frame';
import { SubGroupTable } from '../components/sub-group-table';

function SubGroups({ group }: { group: LicenceGroup }) {
  const { can } = useRights();
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Stack gap={4}>
          <Title order={2} size="h3">
            Sub-groups
          </Title>
          <Text size="sm" c="dimmed">
            The licence types of this group; each holds the definitions applicants apply for.
          </Text>
        </Stack>
        {can('lms_definitions.add_definition') && (
          <Button component={Link} to={href('licence-sub-group-add', { id: group.id })}>
            Add sub-group
          </Button>
        )}
      </Group>
      <SubGroupTable groupId={group.id} />
    </Stack>
  );
}

/** /licence-groups/{id}/sub-groups: the group's sub-groups. */
export default function LicenceSubGroups() {
  return <GroupFrame>{(g) => <SubGroups group={g} />}</GroupFrame>;
}
