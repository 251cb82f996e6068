import { formatDate } from '@kestrel/domain';
import { Anchor, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Activity } from '../../../api/activities';
import { Fact } from '../../../components/fact';
import { StateBadge } from '../../../components/state-badge';

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
      {a.notes ? (
        <Stack gap={4} mt="lg">
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            Notes
          </Text>
          <Text style={{ whiteSpace: 'pre-wrap' }}>{a.notes}</Text>
        </Stack>
      ) : null}
      {a.case.case_activities.length > 1 ? (
        <Stack gap={6} mt="lg">
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            Checks on this case
          </Text>
          <Group gap="md">
            {a.case.case_activities.map((s) => (
              <Group key={s.id} gap={6} wrap="nowrap">
                <Text size="sm" fw={s.id === a.id ? 700 : 400}>
                  {s.activity_type_name}
                </Text>
                <StateBadge state={s.state} label={s.state_display} />
              </Group>
            ))}
          </Group>
        </Stack>
      ) : null}
    </Paper>
  );
}

/**
 * An outstanding activity not loaded: a skeleton while it loads, or (`failed`) why it is gone,
 * with the way back to its list (`back`, a path).
 */
export function ActivityNotLoaded({
  failed,
  gone,
  back,
}: {
  failed: boolean;
  gone: string;
  back: string;
}) {
  return failed ? (
    <Stack>
      <Title order={1}>Outstanding activity</Title>
      <Text c="dimmed">{gone}</Text>
      <Anchor component={Link} to={back}>
        Back to outstanding activities
      </Anchor>
    </Stack>
  ) : (
    <Skeleton h={240} radius="lg" />
  );
}
