import { REGISTRATION_STATE_LABELS, type RegistrationState } from '@kestrel/domain';
import { Badge } from '@mantine/core';

const COLOURS: Record<RegistrationState, string> = {
  started: 'gray',
  email_confirmed: 'blue',
  awaiting_payment: 'orange',
  paid: 'cyan',
  case_created: 'teal',
  expired: 'red',
};

/** A registration's state with its label ('Email confirmed'), never truncated in a table. */
export function RegistrationStateBadge({ state }: { state: RegistrationState }) {
  return (
    <Badge
      variant="light"
      color={COLOURS[state]}
      data-state={state}
      style={{ flexShrink: 0, overflow: 'visible', minWidth: 'max-content' }}
      styles={{ label: { overflow: 'visible', textOverflow: 'clip' } }}
    >
      {REGISTRATION_STATE_LABELS[state]}
    </Badge>
  );
}
