import { formatDate, formatPence, licenceDurationText } from '@kestrel/domain';
import { Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { Fact } from '../../../components/fact';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { type Definition, definitionPortals, useApplicationCount } from '../api';
import { DefinitionFrame } from '../components/definition-frame';
import { RequirementSummary } from '../components/requirement-summary';

function Count({ value }: { value: number | null | undefined }) {
  return <>{value === undefined ? '…' : value === null ? '—' : value}</>;
}

function Portals({ definition: d }: { definition: Definition }) {
  const { can } = useRights();
  const list = definitionPortals(d.id).useList({ page_size: 5 });
  const rows = list.data?.results ?? [];
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4">
          Application portals
        </Title>
        {can('lms_definitions.add_definition') && (
          <Button
            component={Link}
            to={href('definition-application-portal-add', { id: d.id })}
            variant="light"
            size="compact-sm"
          >
            Add portal
          </Button>
        )}
      </Group>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {list.isPending ? 'Loading…' : 'No application portals yet: nobody can apply.'}
        </Text>
      ) : (
        <Stack gap="xs">
          {rows.map((p) => (
            <Group key={p.id} justify="space-between" wrap="nowrap" gap="sm">
              <Anchor
                component={Link}
                to={href('definition-application-portal', { id: d.id, appId: p.id })}
                fw={600}
              >
                {p.title}
              </Anchor>
              <Group gap="xs" wrap="nowrap">
                <Text size="sm" c="dimmed" visibleFrom="sm">
                  {p.kind_label} · {p.fee_display}
                </Text>
                <Badge variant="light" color={p.is_open ? 'teal' : 'gray'}>
                  {p.is_open ? 'Open' : 'Closed'}
                </Badge>
              </Group>
            </Group>
          ))}
          {d.portal_count > rows.length && (
            <Anchor component={Link} to={href('definition-application-portals', { id: d.id })}>
              All {d.portal_count} portals
            </Anchor>
          )}
        </Stack>
      )}
    </Paper>
  );
}

function Overview({ definition: d }: { definition: Definition }) {
  const all = useApplicationCount({ definition: d.id });
  const inProgress = useApplicationCount({ definition: d.id, state: 'in_progress' });
  const moreInfo = useApplicationCount({ definition: d.id, state: 'more_info_requested' });
  return (
    <Stack gap="lg">
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="lg">
          <Fact label="Sub-group">{d.sub_group_name}</Fact>
          <Fact label="Duration">{licenceDurationText(d.duration_years)}</Fact>
          <Fact label="Fee">{formatPence(d.fee_pence)}</Fact>
          <Fact label="Applications">
            <Count value={all.data} />
          </Fact>
          <Fact label="In progress">
            <Count value={inProgress.data} />
          </Fact>
          <Fact label="Awaiting the applicant">
            <Count value={moreInfo.data} />
          </Fact>
        </SimpleGrid>
        {d.description && (
          <Text mt="lg" style={{ whiteSpace: 'pre-wrap' }}>
            {d.description}
          </Text>
        )}
        <Text size="xs" c="dimmed" mt="lg">
          Created {formatDate(d.created_at)} · last changed {formatDate(d.updated_at)}
        </Text>
      </Paper>
      <RequirementSummary definition={d} />
      <Portals definition={d} />
    </Stack>
  );
}

/** /definitions/:id: a licence definition at a glance. */
export default function DefinitionOverview() {
  return <DefinitionFrame>{(d) => <Overview definition={d} />}</DefinitionFrame>;
}
