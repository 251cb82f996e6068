import { Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { BackToList } from '../../../components/back-to-list';
import { countLabel } from '../../../components/count-label';
import { SectionTabs } from '../../../components/section-tabs';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { type Segment, segments } from '../api';

const TABS = [
  { route: 'segment', label: 'Overview' },
  { route: 'segment-details', label: 'Details', permission: 'segments.change_segment' },
  { route: 'segment-users', label: 'Users' },
  { route: 'segment-processes', label: 'Processes' },
] as const;

/** The segment's id from the route (`/segments/:id/...`). */
export function useSegmentId(): string {
  const { id = '' } = useParams();
  return id;
}

/** The frame of one segment's pages: its name, counts, tabs, and the body once it loads. */
export function SegmentFrame({ children }: { children: (segment: Segment) => ReactNode }) {
  const id = useSegmentId();
  const { can } = useRights();
  const query = segments.useItem(id);
  const segment = query.data;
  return (
    <Stack gap="lg">
      <BackToList path={href('segments')} label="All segments" />
      <Stack gap={4}>
        <Title order={1}>{segment ? segment.name : query.isError ? 'Segment' : '…'}</Title>
        {segment && (
          <Text size="sm" c="dimmed">
            {countLabel({ count: segment.user_count }, 'user', 'users')} ·{' '}
            {countLabel({ count: segment.process_count }, 'process', 'processes')}
          </Text>
        )}
      </Stack>
      <SectionTabs
        label="Segment sections"
        tabs={TABS.filter((t) => !('permission' in t) || can(t.permission)).map((t) => ({
          to: href(t.route, { id }),
          label: t.label,
        }))}
      />
      {segment ? (
        children(segment)
      ) : query.isError ? (
        <Text c="dimmed">This segment could not be found.</Text>
      ) : (
        <Skeleton h={200} radius="lg" />
      )}
    </Stack>
  );
}
