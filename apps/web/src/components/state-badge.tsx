import { Badge } from '@mantine/core';

const COLOURS: Record<string, string> = {
  pending: 'gray',
  'awaiting-subject': 'yellow',
  'in-progress': 'blue',
  'pending-case-decision': 'grape',
  complete: 'teal',
  cancelled: 'red',
  'ca-pending': 'gray',
  'ca-awaiting-subject': 'yellow',
  'ca-awaiting-agent': 'orange',
  'ca-awaiting-ops': 'cyan',
  'ca-in-progress': 'blue',
  'ca-pending-activity-decision': 'grape',
  'ca-complete': 'teal',
  'ca-cancelled': 'red',
  'ca-error-initiating': 'red',
};

/** A case or activity state with its label (the server's `state_display`). */
export function StateBadge({ state, label }: { state: string; label: string }) {
  return (
    <Badge
      variant="light"
      color={COLOURS[state] ?? 'gray'}
      data-state={state}
      style={{ flexShrink: 0, overflow: 'visible' }}
    >
      {label}
    </Badge>
  );
}
