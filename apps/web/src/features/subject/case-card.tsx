import { formatDate } from '@kestrel/domain';
import { Anchor, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { isCaseToDo, type SubjectCase } from '../../api/subject-cases';
import { href } from '../../config/paths';
import { CaseProgress, caseWords, SentEverything, StateWords } from './case-parts';
import { NextStepButton } from './next-step-button';

/**
 * One case on the dashboard: who asked, what is still needed, the progress, and the next step
 * as ONE button into the case portal (or, once submitted, what happens now).
 */
export function CaseCard({ item }: { item: SubjectCase }) {
  const todo = isCaseToDo(item);
  const titleId = `case-${item.id}-title`;
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      component="section"
      aria-labelledby={titleId}
      data-testid="subject-case"
    >
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={2}>
            <Title order={2} size="h3" id={titleId}>
              {item.customer.name}
            </Title>
            <Text size="sm" c="dimmed">
              Requested on {formatDate(item.created_at)}
            </Text>
          </Stack>
          <StateWords words={caseWords(item.state, item.state_display)} state={item.state} />
        </Group>
        <CaseProgress progress={item.progress} label={`${item.customer.name} checks`} />
        {todo && item.needs.length > 0 && (
          <Stack gap={4}>
            <Text fw={600}>Still to do</Text>
            <List spacing={2} data-testid="case-needs">
              {item.needs.map((n) => (
                <List.Item key={n}>{n}</List.Item>
              ))}
            </List>
          </Stack>
        )}
        <SentEverything item={item} />
        <Group justify="space-between" align="center" gap="md">
          <Anchor component={Link} to={href('subject-case-detail', { id: item.id })} py={10}>
            See the checks
          </Anchor>
          {todo && item.next_step && <NextStepButton item={item} step={item.next_step} />}
        </Group>
      </Stack>
    </Paper>
  );
}
