import { Anchor, Button, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { KitForm } from '../../../components/form-kit';
import classes from '../../../components/list-table.module.css';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import {
  type LicenceGroup,
  type LicenceSubGroup,
  licenceDefinitions,
  licenceSubGroups,
} from '../api';
import { GroupFrame } from '../components/group-frame';
import { PublishedBadge } from '../components/licence-status-badge';
import { SubGroupFields, subGroupValues, useSubGroupForm } from '../components/sub-group-fields';

function EditForm({ subGroup }: { subGroup: LicenceSubGroup }) {
  const kit = useSubGroupForm(subGroup.group, subGroup, (saved) =>
    kit.form.reset(subGroupValues(saved)),
  );
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <KitForm kit={kit} gap="lg" aria-label="Sub-group details">
        <SubGroupFields control={kit.form.control} />
        <Group justify="flex-end">
          <Button type="submit" loading={kit.saving} disabled={!kit.form.formState.isDirty}>
            Save changes
          </Button>
        </Group>
      </KitForm>
    </Paper>
  );
}

/** The sub-group's definitions, each a link to its page (first 100: a sub-group holds a few). */
function Definitions({ subGroup }: { subGroup: LicenceSubGroup }) {
  const query = licenceDefinitions.useList({ sub_group: subGroup.id, page_size: 100 });
  const rows = query.data?.results ?? [];
  return (
    <Paper withBorder radius="lg">
      <Stack gap={4} p={{ base: 'md', sm: 'xl' }} pb="sm">
        <Title order={2} size="h4">
          Licence definitions
        </Title>
        <Text size="sm" c="dimmed">
          The licences of this sub-group that applicants apply for, with their duration and fee.
        </Text>
      </Stack>
      {query.isPending ? (
        <Skeleton h={80} m="md" />
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed" px={{ base: 'md', sm: 'xl' }} pb="xl">
          No definitions yet. Add one from Licence definitions, choosing this sub-group.
        </Text>
      ) : (
        <Table verticalSpacing="sm" horizontalSpacing="md" className={classes.table}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Definition</Table.Th>
              <Table.Th>Duration</Table.Th>
              <Table.Th>Fee</Table.Th>
              <Table.Th>Public pages</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((d) => (
              <Table.Tr key={d.id}>
                <Table.Td data-label="Definition">
                  <Anchor component={Link} to={href('definition', { id: d.id })} fw={600}>
                    {d.name}
                  </Anchor>
                </Table.Td>
                <Table.Td data-label="Duration">{d.duration_text}</Table.Td>
                <Table.Td data-label="Fee">{d.fee_display}</Table.Td>
                <Table.Td data-label="Public pages">
                  <PublishedBadge isPublished={d.is_published} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

function SubGroupBody({ group }: { group: LicenceGroup }) {
  const { subGroupId = '' } = useParams();
  const { can } = useRights();
  const query = licenceSubGroups.useItem(subGroupId);
  // A sub-group of another group is not found here (its address names its own group).
  const subGroup = query.data?.group === group.id ? query.data : undefined;
  if (!subGroup) {
    return query.isPending ? (
      <Skeleton h={320} radius="lg" />
    ) : (
      <Text c="dimmed">This sub-group could not be found.</Text>
    );
  }
  return (
    <Stack gap="lg" maw={880}>
      <Group gap="sm">
        <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
          {subGroup.name}
        </Title>
        <PublishedBadge isPublished={subGroup.is_published} />
      </Group>
      {can('lms_definitions.change_definition') ? (
        <EditForm subGroup={subGroup} />
      ) : (
        <Text size="sm">{subGroup.description}</Text>
      )}
      <Definitions subGroup={subGroup} />
    </Stack>
  );
}

/** /licence-groups/{id}/sub-groups/{subGroupId}: the sub-group edited, with its definitions. */
export default function LicenceSubGroupPage() {
  return <GroupFrame>{(g) => <SubGroupBody group={g} />}</GroupFrame>;
}
