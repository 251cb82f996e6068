import { Anchor, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { ProcessFrame } from '../../processes';
import { processRegPortals, type RegPortal } from '../api';
import { DeleteRegPortal } from '../components/delete-reg-portal';
import { countText, portalStateText } from '../components/portal-state';
import { PublicLink } from '../components/public-link';
import { PAYER_LABELS } from '../components/reg-portal-fields';

function PortalList({ processId }: { processId: number }) {
  const { can } = useRights();
  const resource = useMemo(() => processRegPortals(processId), [processId]);
  const mayAdd = can('registration_portals.add_registrationportal');
  const mayChange = can('registration_portals.change_registrationportal');
  const today = new Date().toISOString().slice(0, 10);
  const addLink = href('registration-portal-add', { id: processId });
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Stack gap={4}>
          <Title order={2} size="h3">
            Registration portals
          </Title>
          <Text size="sm" c="dimmed">
            Links you publish for people to register themselves for this process's checks.
          </Text>
        </Stack>
        {mayAdd && (
          <Button component={Link} to={addLink}>
            Add registration portal
          </Button>
        )}
      </Group>
      <ResourceTable<RegPortal>
        resource={resource}
        searchable={false}
        empty={{
          title: 'No registration portals yet',
          text: 'Add a portal to publish a link (or a QR code) where people register for their checks.',
          action: mayAdd ? (
            <Button component={Link} to={addLink} size="sm">
              Add your first portal
            </Button>
          ) : undefined,
        }}
        columns={[
          {
            key: 'title',
            header: 'Title',
            render: (p) => (
              <Stack gap={2}>
                <Text fw={600} size="sm">
                  {p.title}
                </Text>
                <Text size="xs" c="dimmed">
                  {p.segment_name}
                </Text>
              </Stack>
            ),
          },
          {
            key: 'link',
            header: 'Public link',
            render: (p) => <PublicLink title={p.title} publicLink={p.public_link} compact />,
          },
          {
            key: 'state',
            header: 'State',
            render: (p) => {
              const s = portalStateText(p, today);
              return (
                <Badge
                  variant="light"
                  color={s.open ? 'teal' : 'gray'}
                  style={{ minWidth: 'max-content' }}
                >
                  {s.label}
                </Badge>
              );
            },
          },
          { key: 'payer', header: 'Who pays', render: (p) => PAYER_LABELS[p.payer] },
          {
            key: 'count',
            header: 'Registrations',
            render: (p) => (
              <Anchor
                component={Link}
                to={href('subject-registrations', {}, { process: processId, reg_portal: p.id })}
                size="sm"
                aria-label={`Registrations of ${p.title}: ${countText(p)}`}
              >
                {countText(p)}
              </Anchor>
            ),
          },
          {
            key: 'actions',
            header: 'Actions',
            render: (p) =>
              mayChange ? (
                <Group gap="xs" wrap="nowrap">
                  <Button
                    component={Link}
                    to={href('registration-portal-edit', { id: processId, regPortalId: p.id })}
                    variant="subtle"
                    size="compact-sm"
                    aria-label={`Edit ${p.title}`}
                  >
                    Edit
                  </Button>
                  <DeleteRegPortal portal={p} />
                </Group>
              ) : (
                '—'
              ),
          },
        ]}
      />
    </Stack>
  );
}

/** /processes/:id/registration-portals: the process's portals, their links, state and count. */
export default function RegistrationPortals() {
  return <ProcessFrame>{(process) => <PortalList processId={process.id} />}</ProcessFrame>;
}
