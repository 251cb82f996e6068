import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { type Definition, definitionPortals, type Portal } from '../api';
import { DefinitionFrame } from '../components/definition-frame';

function PortalList({ definition: d }: { definition: Definition }) {
  const { can } = useRights();
  const resource = useMemo(() => definitionPortals(d.id), [d.id]);
  const mayAdd = can('lms_definitions.add_definition');
  const add = href('definition-application-portal-add', { id: d.id });
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Stack gap={4}>
          <Title order={2} size="h3">
            Application portals
          </Title>
          <Text size="sm" c="dimmed">
            Where people apply for this licence, each with its own public page and fee.
          </Text>
        </Stack>
        {mayAdd && (
          <Button component={Link} to={add}>
            Add portal
          </Button>
        )}
      </Group>
      <ResourceTable<Portal>
        resource={resource}
        searchable={false}
        rowHref={(p) => href('definition-application-portal', { id: d.id, appId: p.id })}
        empty={{
          title: 'No application portals yet',
          text: 'Add a portal so that people can apply for this licence.',
          action: mayAdd ? (
            <Button component={Link} to={add} size="sm">
              Add your first portal
            </Button>
          ) : undefined,
        }}
        columns={[
          { key: 'title', header: 'Title', render: (p) => p.title },
          { key: 'kind', header: 'Applications', render: (p) => p.kind_label },
          { key: 'fee', header: 'Fee', render: (p) => p.fee_display },
          {
            key: 'open',
            header: 'Status',
            render: (p) => (
              <Badge
                variant="light"
                color={p.is_open ? 'teal' : 'gray'}
                style={{ minWidth: 'max-content' }}
              >
                {p.is_open ? 'Open' : 'Closed'}
              </Badge>
            ),
          },
        ]}
      />
    </Stack>
  );
}

/** /definitions/:id/application-portals: the definition's application portals. */
export default function DefinitionApplicationPortals() {
  return <DefinitionFrame>{(d) => <PortalList definition={d} />}</DefinitionFrame>;
}
