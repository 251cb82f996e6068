import { CASE_ACTIVITY_STATE_LABELS, CASE_ACTIVITY_STATES, formatDate } from '@kestrel/domain';
import { Text } from '@mantine/core';
import type { Activity } from '../../../api/activities';
import type { Column, SelectFilter } from '../../../components/resource-table';
import { StateBadge } from '../../../components/state-badge';
import { useSession } from '../../../lib/session/session-store';

/** The columns of an activity list; `since` heads the last-update column. */
export const activityColumns = (since: string): Column<Activity>[] => [
  { key: 'check', header: 'Check', render: (a) => a.activity_type_name },
  {
    key: 'subject',
    header: 'Subject',
    render: (a) => (
      <>
        <Text size="sm" fw={500}>
          {a.case.subject.first_name} {a.case.subject.last_name}
        </Text>
        <Text size="xs" c="dimmed">
          {a.case.subject.email}
        </Text>
      </>
    ),
  },
  { key: 'case', header: 'Case', render: (a) => `#${a.case.id}` },
  {
    key: 'state',
    header: 'State',
    render: (a) => <StateBadge state={a.state} label={a.state_display} />,
  },
  { key: 'updated', header: since, render: (a) => formatDate(a.updated_at) },
];

/** Filters by state and by kind of check (the customer's activity types). */
export function useActivityFilters(
  states: readonly string[] = CASE_ACTIVITY_STATES,
): SelectFilter[] {
  const { bootstrap } = useSession();
  return [
    {
      name: 'state',
      label: 'State',
      options: states.map((s) => ({
        value: s,
        label: CASE_ACTIVITY_STATE_LABELS[s as keyof typeof CASE_ACTIVITY_STATE_LABELS] ?? s,
      })),
    },
    {
      name: 'activity_type',
      label: 'Check',
      options: (bootstrap?.activityTypes ?? []).map((t) => ({ value: t.code, label: t.name })),
    },
  ];
}
