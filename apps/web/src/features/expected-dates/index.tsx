import { expectedCompletion, formatDate, isOverdue } from '@kestrel/domain';
import { Text } from '@mantine/core';

/**
 * An open check's expected completion date (issue 33), from the domain's rule over its kind,
 * state and what the provider said so far; overdue ones say operations are on it (the
 * checks-overdue job escalates them and flags the case). Nothing while the check waits for the
 * subject or the customer, or once it is done.
 */
export function ExpectedDate({
  activity,
  today = new Date().toISOString().slice(0, 10),
}: {
  activity: {
    activity_type: string;
    state: string;
    created_at: string;
    result_data: Record<string, unknown>;
  };
  today?: string;
}) {
  const expected = expectedCompletion({
    code: activity.activity_type,
    state: activity.state,
    startedOn: activity.created_at.slice(0, 10),
    result: activity.result_data,
  });
  if (!expected) return null;
  const late = isOverdue(expected.date, today);
  return (
    <Text
      size="xs"
      c={late ? 'var(--mantine-color-red-text)' : 'dimmed'}
      data-testid="expected-date"
      title={expected.basis}
    >
      {late
        ? `Overdue: expected by ${formatDate(expected.date)}. Our operations team is looking into it.`
        : `Expected by ${formatDate(expected.date)}`}
    </Text>
  );
}
