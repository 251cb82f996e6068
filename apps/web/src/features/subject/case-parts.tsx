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
  // held for the organisation's payment: nothing is asked of the person yet
  'awaiting-payment': { text: 'Not started', color: 'gray' },
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

/**
 * What the person reads about what happens now (the spec has no words for it: ours, GOV.UK
 * style), one of: a finished case (complete: the customer has the result; cancelled: nothing
 * more to do); a submitted case with a check still waiting for them (a knowledge test to take, a
 * session to book, a document to replace); a submitted case waiting for nothing from them.
 */
export const SUBJECT_CASE_TEXTS = {
  complete: (customer: string, checks: number) =>
    checks === 1
      ? `This check is complete. ${customer} has your result.`
      : `These checks are complete. ${customer} has your results.`,
  cancelled: (checks: number) =>
    `${checks === 1 ? 'This check was' : 'These checks were'} cancelled. You do not need to do anything else.`,
  stillToFinish: (checks: readonly string[]) => `You still need to finish: ${checks.join(', ')}.`,
  sentEverything: (customer: string) =>
    `You have sent everything. We will email you if ${customer} needs anything else.`,
} as const;

/** The words for what happens now, or null while the person has a next step of their own. */
export function caseOutlook(item: SubjectCase): string | null {
  const checks = item.case_activities.length;
  if (item.state === 'complete') return SUBJECT_CASE_TEXTS.complete(item.customer.name, checks);
  if (item.state === 'cancelled') return SUBJECT_CASE_TEXTS.cancelled(checks);
  if (isCaseToDo(item) || !item.submitted) return null;
  const waiting = item.case_activities
    .filter((a) => a.state === 'ca-awaiting-subject')
    .map((a) => a.activity_type.code_display);
  if (waiting.length > 0) return SUBJECT_CASE_TEXTS.stillToFinish(waiting);
  return SUBJECT_CASE_TEXTS.sentEverything(item.customer.name);
}

/** What happens now on a case the person has sent, or that has finished. */
export function SentEverything({ item }: { item: SubjectCase }) {
  const words = caseOutlook(item);
  if (!words) return null;
  return <Text data-testid="case-outlook">{words}</Text>;
}
