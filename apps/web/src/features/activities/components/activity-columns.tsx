import { CASE_ACTIVITY_STATE_LABELS, CASE_ACTIVITY_STATES, formatDate } from '@kestrel/domain';
import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Activity } from '../../../api/activities';
import { Email } from '../../../components/email';
import type { Column, SelectFilter } from '../../../components/resource-table';
import { StateBadge } from '../../../components/state-badge';
import { href } from '../../../config/paths';
import { useSession } from '../../../lib/session/session-store';

/**
 * The columns of an activity list; `since` heads the last-update column. The case number links
 * to the case unless `caseLinks` is false (operations, outside the customer's workspace).
 */
export const activityColumns = (since: string, caseLinks = true): Column<Activity>[] => [
  { key: 'check', header: 'Check', render: (a) => a.activity_type_name },
  {
    key: 'subject',
    header: 'Subject',
    render: (a) => (
      <div>
        <Text size="sm" fw={500}>
          {a.case.subject.first_name} {a.case.subject.last_name}
        </Text>
        <Text size="xs" c="dimmed">
          <Email address={a.case.subject.email} />
        </Text>
      </div>
    ),
  },
  {
    key: 'case',
    header: 'Case',
    render: (a) =>
      caseLinks ? (
        <Anchor component={Link} to={href('case-detail', { id: a.case.id })}>
          #{a.case.id}
        </Anchor>
      ) : (
        `#${a.case.id}`
      ),
  },
  {
    key: 'state',
    header: 'State',
    render: (a) => <StateBadge state={a.state} label={a.state_display} />,
  },
  {
    key: 'updated',
    header: since,
    render: (a) => <span style={{ whiteSpace: 'nowrap' }}>{formatDate(a.updated_at)}</span>,
  },
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
