import { Anchor, Badge, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { type Process, processes } from '../../../api/processes';
import { SectionTabs } from '../../../components/section-tabs';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';

const TABS = [
  { route: 'process', label: 'Overview' },
  { route: 'process-details', label: 'Details', permission: 'processes.change_process' },
  {
    route: 'process-configuration',
    label: 'Configuration',
    permission: 'processes.change_process',
  },
  { route: 'process-requirements', label: 'Requirements' },
  // Issue 31: each only for a customer holding its entitlement.
  {
    route: 'registration-portals',
    label: 'Registration portals',
    permission: 'registration_portals.view_registrationportal',
    entitlement: 'regportals',
  },
  { route: 'cycles', label: 'Cycles', permission: 'cycles.view_cycle', entitlement: 'cycles' },
] as const;

/** The frame of one process's pages: title, tabs, and the page body once the process loads. */
export function ProcessFrame({ children }: { children: (process: Process) => ReactNode }) {
  const { id = '' } = useParams();
  const { can, entitled } = useRights();
  const query = processes.useItem(id);
  const process = query.data;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={href('processes')} size="sm">
        ← All processes
      </Anchor>
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1}>{process ? process.name : query.isError ? 'Process' : '…'}</Title>
          {process && (
            <Group gap="xs">
              <Badge variant="light" color={process.is_active ? 'teal' : 'gray'}>
                {process.is_active ? 'Active' : 'Inactive'}
              </Badge>
              <Text size="sm" c="dimmed">
                {process.requirements.length} checks
              </Text>
            </Group>
          )}
        </Stack>
      </Group>
      <SectionTabs
        label="Process sections"
        tabs={TABS.filter(
          (t) =>
            (!('permission' in t) || can(t.permission)) &&
            (!('entitlement' in t) || entitled(t.entitlement)),
        ).map((t) => ({
          to: href(t.route, { id }),
          label: t.label,
        }))}
      />
      {process ? (
        children(process)
      ) : query.isError ? (
        <Text c="dimmed">This process could not be found.</Text>
      ) : (
        <Skeleton h={200} radius="lg" />
      )}
    </Stack>
  );
}
