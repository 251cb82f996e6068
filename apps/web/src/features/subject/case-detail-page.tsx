import { formatDate } from '@kestrel/domain';
import { Anchor, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { isCaseToDo, subjectCases } from '../../api/subject-cases';
import { href } from '../../config/paths';
import { activityWords, CaseProgress, caseWords, SentEverything, StateWords } from './case-parts';
import { NextStepButton } from './next-step-button';
import { SubjectResultSlot } from './result-slot';

/** /s/cases/:id (subject-case-detail): the case's checks and their states in plain words. */
export default function SubjectCaseDetailPage() {
  const { id = '' } = useParams();
  const item = useQuery(subjectCases.itemOptions(id));
  const back = (
    <Anchor component={Link} to={href('s:cases')} py={10}>
      ← All your cases
    </Anchor>
  );
  if (item.isPending) return <Skeleton h={240} radius="lg" aria-label="Loading the case" />;
  if (!item.data) {
    return (
      <Stack gap="md" maw={760}>
        {back}
        <Title order={1}>Case not found</Title>
        <Text>This case does not exist or is not yours to see.</Text>
      </Stack>
    );
  }
  const c = item.data;
  const todo = isCaseToDo(c);
  return (
    <Stack gap="lg" maw={760}>
      <Group>{back}</Group>
      <Stack gap={4}>
        <Title order={1}>Checks for {c.customer.name}</Title>
        <Group gap="sm">
          <Text c="dimmed">Requested on {formatDate(c.created_at)}</Text>
          <StateWords words={caseWords(c.state, c.state_display)} state={c.state} />
        </Group>
      </Stack>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="md">
          <CaseProgress progress={c.progress} label="Your progress" />
          {todo && c.next_step && <NextStepButton item={c} step={c.next_step} />}
          <SentEverything item={c} />
        </Stack>
      </Paper>
      <Stack gap="sm">
        <Title order={2} size="h3">
          The checks
        </Title>
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {c.case_activities.map((a) => (
            <Paper
              component="li"
              key={a.id}
              withBorder
              radius="md"
              p="md"
              data-testid="subject-activity"
            >
              <Stack gap="sm">
                <Group justify="space-between" gap="xs">
                  <Text fw={600}>{a.activity_type.code_display}</Text>
                  <StateWords words={activityWords(a.state, a.state_display)} state={a.state} />
                </Group>
                <SubjectResultSlot caseId={c.id} activity={a} />
              </Stack>
            </Paper>
          ))}
        </Stack>
      </Stack>
    </Stack>
  );
}
