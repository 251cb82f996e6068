import { formatDate } from '@kestrel/domain';
import { Anchor, Badge } from '@mantine/core';
import { Link } from 'react-router';
import type { Column } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import type { Subscription } from '../api';
import { SubscriptionActions } from './subscription-actions';
import { SubscriptionBillingCell } from './subscription-billing';

const STATE_COLOURS: Record<Subscription['state'], string> = {
  active: 'teal',
  paused: 'yellow',
  ended: 'gray',
};

/** The state as a badge ('Active', 'Paused', 'Ended'). */
export function StateBadge({ subscription: s }: { subscription: Subscription }) {
  return (
    <Badge variant="light" color={STATE_COLOURS[s.state]} style={{ minWidth: 'max-content' }}>
      {s.state_display}
    </Badge>
  );
}

/**
 * The columns of a list of subscriptions: the subject (unless one subject's list), cycle,
 * process, state, next due date, billing (its cycle and the last period's state, with 'Retry
 * payment' when its card charge failed), and the actions when `mayChange`.
 */
export function subscriptionColumns({
  withSubject,
  mayChange,
}: {
  withSubject: boolean;
  mayChange: boolean;
}): Column<Subscription>[] {
  const columns: Column<Subscription>[] = [
    { key: 'cycle', header: 'Cycle', render: (s) => s.cycle.name },
    {
      key: 'process',
      header: 'Process',
      render: (s) => (
        <Anchor component={Link} to={href('process', { id: s.process.id })} size="sm">
          {s.process.name}
        </Anchor>
      ),
    },
    { key: 'repeat', header: 'Repeats', render: (s) => s.cycle.repeat_text },
    { key: 'state', header: 'State', render: (s) => <StateBadge subscription={s} /> },
    { key: 'due', header: 'Next due', render: (s) => formatDate(s.next_due_at) || '—' },
    // the billing cycle, and under it the last period's billing (one column: the table fits)
    {
      key: 'billing',
      header: 'Billing',
      render: (s) => <SubscriptionBillingCell subscription={s} />,
    },
    { key: 'cases', header: 'Cases opened', render: (s) => s.cases_opened },
  ];
  if (withSubject)
    columns.unshift({
      key: 'subject',
      header: 'Subject',
      render: (s) => (
        <Anchor component={Link} to={href('subject', { id: s.subject.id })} size="sm" fw={600}>
          {`${s.subject.first_name} ${s.subject.last_name}`}
        </Anchor>
      ),
    });
  if (mayChange)
    columns.push({
      key: 'actions',
      header: 'Actions',
      render: (s) => <SubscriptionActions subscription={s} />,
    });
  return columns;
}
