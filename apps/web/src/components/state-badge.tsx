import { Badge } from '@mantine/core';

const COLOURS: Record<string, string> = {
  pending: 'gray',
  'awaiting-payment': 'orange',
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
  // a payment's state (features/payments)
  'payment-awaiting': 'gray',
  'payment-paid': 'teal',
  'payment-declined': 'red',
  'payment-partially_refunded': 'yellow',
  'payment-refunded': 'blue',
};

/**
 * A case or activity state with its label (the server's `state_display`), never truncated:
 * Mantine's label clips with an ellipsis, which lets a table squeeze the badge to 'IN PROGRE…'
 * (a clipped box contributes no minimum width), so the label and the badge keep their full width.
 */
export function StateBadge({
  state,
  label,
  testId,
}: {
  state: string;
  label: string;
  testId?: string;
}) {
  return (
    <Badge
      variant="light"
      color={COLOURS[state] ?? 'gray'}
      data-state={state}
      data-testid={testId}
      style={{ flexShrink: 0, overflow: 'visible', minWidth: 'max-content' }}
      styles={{ label: { overflow: 'visible', textOverflow: 'clip' } }}
    >
      {label}
    </Badge>
  );
}
