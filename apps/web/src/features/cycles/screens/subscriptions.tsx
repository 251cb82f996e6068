import { SUBSCRIPTION_STATE_LABELS, SUBSCRIPTION_STATES } from '@kestrel/domain';
import { Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { ResourceTable } from '../../../components/resource-table';
import { useRights } from '../../../lib/rights';
import { allCycles, type Subscription, subscriptions } from '../api';
import { subscriptionColumns } from '../components/subscription-columns';

const STATE_OPTIONS = SUBSCRIPTION_STATES.map((s) => ({
  value: s,
  label: SUBSCRIPTION_STATE_LABELS[s],
}));

/** /subscriptions: every subscription, the next due first, filtered by cycle, state, due date. */
export default function Subscriptions() {
  const { can } = useRights();
  const [dueBefore, setDueBefore] = useState('');
  const cycles = allCycles.useList({ page_size: 100 });
  const cycleOptions = (cycles.data?.results ?? []).map((c) => ({
    value: String(c.id),
    label: `${c.name} (${c.process_name})`,
  }));
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Subscriptions</Title>
        <Text size="sm" c="dimmed">
          Subjects subscribed to a cycle: a new case opens on each due date with the cycle's checks.
        </Text>
      </Stack>
      <Group>
        <TextInput
          type="date"
          label="Due on or before"
          value={dueBefore}
          onChange={(e) => setDueBefore(e.currentTarget.value)}
          w={{ base: '100%', sm: 220 }}
        />
      </Group>
      <ResourceTable<Subscription>
        resource={subscriptions}
        searchable={false}
        params={{ due_before: dueBefore || undefined }}
        externalFilters={{ active: dueBefore !== '', clear: () => setDueBefore('') }}
        filters={[
          { name: 'cycle', label: 'Cycle', options: cycleOptions },
          { name: 'state', label: 'State', options: STATE_OPTIONS },
        ]}
        empty={{
          title: 'No subscriptions yet',
          text: "Subscribe a subject to a cycle from the subject's Subscriptions tab.",
        }}
        columns={subscriptionColumns({
          withSubject: true,
          mayChange: can('subscriptions.change_subscription'),
        })}
      />
    </Stack>
  );
}
