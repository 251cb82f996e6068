import '@mantine/core/styles/Progress.css';
import '@mantine/core/styles/List.css';
import type { PortalProgressOut } from '@kestrel/domain';
import { Badge, Progress, Stack, Text } from '@mantine/core';
import { isCaseToDo, type SubjectCase } from '../../api/subject-cases';

/**
 * What an activity's state means to the person being checked, in plain words (spec point 4's
 * states); anything else falls back to the server's `state_display`.
 */
const ACTIVITY_WORDS: Record<string, { text: string; color: string }> = {
  'ca-pending': { text: 'Not started', color: 'gray' },
  'ca-awaiting-subject': { text: 'Waiting for you', color: 'orange' },
  'ca-awaiting-agent': { text: 'Being checked', color: 'blue' },
  'ca-awaiting-ops': { text: 'Being checked', color: 'blue' },
  'ca-in-progress': { text: 'Being checked', color: 'blue' },
  'ca-pending-activity-decision': { text: 'Being reviewed', color: 'blue' },
  'ca-complete': { text: 'Done', color: 'green' },
  'ca-cancelled': { text: 'Cancelled', color: 'gray' },
  'ca-error-initiating': { text: 'Delayed: we are looking into it', color: 'red' },
};

const CASE_WORDS: Record<string, { text: string; color: string }> = {
  pending: { text: 'Not started', color: 'gray' },
  'awaiting-subject': { text: 'Waiting for you', color: 'orange' },
  'in-progress': { text: 'Being checked', color: 'blue' },
  'pending-case-decision': { text: 'Being reviewed', color: 'blue' },
  complete: { text: 'Finished', color: 'green' },
  cancelled: { text: 'Cancelled', color: 'gray' },
};

export const activityWords = (state: string, display: string) =>
  ACTIVITY_WORDS[state] ?? { text: display || state, color: 'gray' };

export const caseWords = (state: string, display: string) =>
  CASE_WORDS[state] ?? { text: display || state, color: 'gray' };

export function StateWords({
  words,
  testId,
  state,
}: {
  words: { text: string; color: string };
  testId?: string;
  state: string;
}) {
  return (
    <Badge
      color={words.color}
      variant="light"
      size="lg"
      radius="sm"
      tt="none"
      data-testid={testId}
      data-state={state}
    >
      {words.text}
    </Badge>
  );
}

/** The portal progress as a bar with its words ('3 of 8 steps done'). */
export function CaseProgress({ progress, label }: { progress: PortalProgressOut; label: string }) {
  const words = `${progress.completed} of ${progress.total} steps done`;
  return (
    <Stack gap={6}>
      <Progress
        value={progress.percent}
        size="lg"
        radius="xl"
        aria-label={`${label}: ${words}`}
        data-testid="case-progress"
      />
      <Text size="sm" c="dimmed">
        {words}
      </Text>
    </Stack>
  );
}

/** Once the person has nothing left to do on a submitted case: what happens now. */
export function SentEverything({ item }: { item: SubjectCase }) {
  if (isCaseToDo(item) || !item.submitted) return null;
  return (
    <Text>
      You have sent everything. We will email you if {item.customer.name} needs anything else.
    </Text>
  );
}
