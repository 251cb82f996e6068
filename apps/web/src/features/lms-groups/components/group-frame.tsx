import { Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { BackToList } from '../../../components/back-to-list';
import { countLabel } from '../../../components/count-label';
import { SectionTabs } from '../../../components/section-tabs';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { type LicenceGroup, licenceGroups } from '../api';
import { PublishedBadge } from './licence-status-badge';

const TABS = [
  { route: 'licence-group', label: 'Overview' },
  {
    route: 'licence-group-details',
    label: 'Details',
    permission: 'lms_definitions.change_definition',
  },
  { route: 'licence-sub-groups', label: 'Sub-groups' },
] as const;

/** The group's id from the route (`/licence-groups/:id/...`). */
export function useGroupId(): string {
  const { id = '' } = useParams();
  return id;
}

/** The frame of one licence group's pages: its name, counts, tabs, and the body once it loads. */
export function GroupFrame({ children }: { children: (group: LicenceGroup) => ReactNode }) {
  const id = useGroupId();
  const { can } = useRights();
  const query = licenceGroups.useItem(id);
  const group = query.data;
  return (
    <Stack gap="lg">
      <BackToList path={href('licence-groups')} label="All licence groups" />
      <Stack gap={4}>
        <Group gap="sm" align="center">
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>
            {group ? group.name : query.isError ? 'Licence group' : '…'}
          </Title>
          {group && <PublishedBadge isPublished={group.is_published} />}
        </Group>
        {group && (
          <Text size="sm" c="dimmed">
            {countLabel({ count: group.sub_group_count }, 'sub-group', 'sub-groups')} ·{' '}
            {countLabel({ count: group.licence_count }, 'licence', 'licences')}
          </Text>
        )}
      </Stack>
      <SectionTabs
        label="Licence group sections"
        tabs={TABS.filter((t) => !('permission' in t) || can(t.permission)).map((t) => ({
          to: href(t.route, { id }),
          label: t.label,
        }))}
      />
      {group ? (
        children(group)
      ) : query.isError ? (
        <Text c="dimmed">This licence group could not be found.</Text>
      ) : (
        <Skeleton h={200} radius="lg" />
      )}
    </Stack>
  );
}
