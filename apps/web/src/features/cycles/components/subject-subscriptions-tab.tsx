import { Button, Group, Stack } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { type Subscription, subjectSubscriptions } from '../api';
import { subscriptionColumns } from './subscription-columns';

/**
 * The subject page's Subscriptions tab: the subject's subscriptions (the next due first), the
 * actions on them, and 'Subscribe to a cycle' while the subject is not archived.
 */
export function SubjectSubscriptionsTab({
  subject,
}: {
  subject: { id: number; is_archived: boolean };
}) {
  const { can } = useRights();
  const resource = useMemo(() => subjectSubscriptions(subject.id), [subject.id]);
  const mayAdd = can('subscriptions.add_subscription') && !subject.is_archived;
  const add = mayAdd ? (
    <Button component={Link} to={href('subject-subscription-add', { id: subject.id })} size="sm">
      Subscribe to a cycle
    </Button>
  ) : undefined;
  return (
    <Stack gap="md">
      {add && <Group justify="flex-end">{add}</Group>}
      <ResourceTable<Subscription>
        resource={resource}
        searchable={false}
        empty={{
          title: 'This subject has no subscriptions.',
          text: 'Subscribe them to a cycle to repeat checks on a schedule.',
        }}
        columns={subscriptionColumns({
          withSubject: false,
          mayChange: can('subscriptions.change_subscription'),
        })}
      />
    </Stack>
  );
}
