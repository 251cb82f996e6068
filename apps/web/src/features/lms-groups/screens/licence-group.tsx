import { formatDate } from '@kestrel/domain';
import { Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { countLabel } from '../../../components/count-label';
import { Fact } from '../../../components/fact';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import type { LicenceGroup } from '../api';
import { GroupFrame } from '../components/group-frame';
import { PublishedBadge } from '../components/licence-status-badge';
import { SubGroupTable } from '../components/sub-group-table';

function Overview({ group: g }: { group: LicenceGroup }) {
  const { can } = useRights();
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <Stack gap="md">
            <Title order={2} size="h4">
              Group
            </Title>
            <Fact label="Description">
              {g.description && (
                <Text component="span" style={{ whiteSpace: 'pre-line' }}>
                  {g.description}
                </Text>
              )}
            </Fact>
            <Fact label="Public pages">
              <Stack gap={4} align="flex-start">
                <PublishedBadge isPublished={g.is_published} />
                <Text size="sm" c="dimmed">
                  {g.is_published
                    ? 'Shown on your council’s public licensing pages with its published sub-groups.'
                    : 'Not shown to the public until it is published.'}
                </Text>
              </Stack>
            </Fact>
            <Fact label="Updated">{formatDate(g.updated_at)}</Fact>
          </Stack>
        </Paper>
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <Stack gap="md" align="flex-start">
            <Title order={2} size="h4">
              Licences
            </Title>
            <Fact label="Issued">
              {countLabel({ count: g.licence_count }, 'licence', 'licences')}
            </Fact>
            <Text size="sm" c="dimmed">
              Licences of this group's definitions, whatever their status.
            </Text>
            <Button
              component={Link}
              to={href('licences', {}, { group: String(g.id) })}
              variant="default"
            >
              See the licences
            </Button>
          </Stack>
        </Paper>
      </SimpleGrid>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3">
            Sub-groups
          </Title>
          {can('lms_definitions.add_definition') && (
            <Button
              component={Link}
              to={href('licence-sub-group-add', { id: g.id })}
              variant="default"
            >
              Add sub-group
            </Button>
          )}
        </Group>
        <SubGroupTable groupId={g.id} />
      </Stack>
      {can('lms_definitions.change_definition') && (
        <Group>
          <Button component={Link} to={href('licence-group-details', { id: g.id })}>
            Edit details
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** /licence-groups/{id}: the group at a glance: description, public state, sub-groups, licences. */
export default function LicenceGroupOverview() {
  return <GroupFrame>{(g) => <Overview group={g} />}</GroupFrame>;
}
