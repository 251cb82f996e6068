import { formatDate } from '@kestrel/domain';
import { Badge, Stack, Text } from '@mantine/core';
import type { QueryParams } from '../../../api/query-string';
import type { EmptyState } from '../../../components/list-states';
import { ResourceTable } from '../../../components/resource-table';
import {
  howLabel,
  kindLabel,
  RECORD_VIEW_KINDS,
  type RecordView,
  recordViews,
  viewerLabel,
} from '../record-views-api';

const when = (iso: string) => `${formatDate(iso)} ${iso.slice(11, 16)}`;

/** The viewer: their name, marked when they are Kestrel operations, an API key or the applicant. */
export function Viewer({ view }: { view: RecordView }) {
  const mark = view.actor_is_ops
    ? 'Kestrel operations'
    : view.actor_type === 'SubjectUser'
      ? 'Applicant'
      : view.actor_type === 'ApiKey'
        ? 'API key'
        : null;
  return (
    <Stack gap={0}>
      <Text size="sm">{viewerLabel(view)}</Text>
      {mark && (
        <Text size="xs" c="dimmed" fw={view.actor_is_ops ? 600 : 400}>
          {mark}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Who saw what: each person's views of a criminal-record result, a driving record or a document,
 * one line per person, item and day with how many times, newest first.
 */
export function RecordViewsTable({
  params,
  showCase = true,
  externalFilters,
  empty,
}: {
  params?: QueryParams;
  showCase?: boolean;
  externalFilters?: { active: boolean; clear: () => void };
  empty?: EmptyState;
}) {
  return (
    <ResourceTable<RecordView>
      key={JSON.stringify(params ?? {})}
      resource={recordViews}
      params={{ ordering: '-last_seen_at', ...params }}
      externalFilters={externalFilters}
      empty={
        empty ?? {
          title: 'No views recorded yet',
          text: 'Each time someone opens a criminal-record result, a driving record or a document, it is recorded here.',
        }
      }
      filters={[{ name: 'item_kind', label: 'Kind of item', options: RECORD_VIEW_KINDS }]}
      columns={[
        { key: 'who', header: 'Who', render: (v) => <Viewer view={v} /> },
        {
          key: 'what',
          header: 'What',
          render: (v) => (
            <Stack gap={0}>
              <Text size="sm">{v.item_label || kindLabel(v.item_kind)}</Text>
              <Text size="xs" c="dimmed">
                {kindLabel(v.item_kind)}
                {showCase ? ` · case #${v.case}` : ''}
              </Text>
            </Stack>
          ),
        },
        {
          key: 'how',
          header: 'How',
          render: (v) => (
            <Text size="sm" fw={v.how === 'download' ? 600 : 400}>
              {howLabel(v.how)}
            </Text>
          ),
        },
        {
          key: 'when',
          header: 'When',
          render: (v) => (
            <Stack gap={0}>
              <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                {when(v.last_seen_at)}
              </Text>
              {v.count > 1 && (
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  first {when(v.first_seen_at)}
                </Text>
              )}
            </Stack>
          ),
        },
        {
          key: 'count',
          header: 'Times',
          render: (v) => (
            <Badge variant="light" color={v.count > 1 ? 'teal' : 'gray'}>
              {v.count}
            </Badge>
          ),
        },
        {
          key: 'from',
          header: 'From',
          render: (v) => (
            <Text size="xs" c="dimmed">
              {[v.ip, v.user_agent].filter(Boolean).join(' · ')}
            </Text>
          ),
        },
      ]}
    />
  );
}
