import { formatDate } from '@kestrel/domain';
import { Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Fact } from '../../../components/fact';
import { StateBadge } from '../../../components/state-badge';
import type { Activity } from '../api/activities';

/** An activity's title, state and how long it has waited; `actions` sit on the right. */
export function ActivityHeading({
  activity: a,
  actions,
}: {
  activity: Activity;
  actions?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-end">
      <Stack gap={6}>
        <Title order={1}>{a.activity_type_name}</Title>
        <Group gap="xs">
          <StateBadge state={a.state} label={a.state_display} />
          <Text size="sm" c="dimmed">
            waiting since {formatDate(a.updated_at)}
          </Text>
        </Group>
      </Stack>
      {actions}
    </Group>
  );
}

/**
 * The facts of an activity: `before` (e.g. the customer) first, then its case (`caseLink` or the
 * plain number), subject, email and dates.
 */
export function ActivityFacts({
  activity: a,
  before,
  caseLink,
}: {
  activity: Activity;
  before?: ReactNode;
  caseLink?: ReactNode;
}) {
  return (
    <Paper withBorder radius="lg" p="xl">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        {before}
        <Fact label="Case">{caseLink ?? `#${a.case.id}`}</Fact>
        <Fact label="Subject">
          {a.case.subject.first_name} {a.case.subject.last_name}
        </Fact>
        <Fact label="Email">{a.case.subject.email}</Fact>
        <Fact label="Opened">{formatDate(a.created_at)}</Fact>
        <Fact label="Updated">{formatDate(a.updated_at)}</Fact>
      </SimpleGrid>
    </Paper>
  );
}
