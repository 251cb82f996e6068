import type { ApplicationState } from '@kestrel/domain';
import { Badge, Group, Progress, Text } from '@mantine/core';

const COLOURS: Record<ApplicationState, string> = {
  awaiting_payment: 'orange',
  in_progress: 'blue',
  more_info_requested: 'yellow',
  granted: 'teal',
  refused: 'red',
  withdrawn: 'gray',
  expired: 'gray',
};

/** An application's state with its label, never clipped. */
export function ApplicationStateBadge({
  state,
  label,
}: {
  state: ApplicationState;
  label: string;
}) {
  return (
    <Badge
      variant="light"
      color={COLOURS[state]}
      data-state={state}
      style={{ flexShrink: 0, overflow: 'visible', minWidth: 'max-content' }}
      styles={{ label: { overflow: 'visible', textOverflow: 'clip' } }}
    >
      {label}
    </Badge>
  );
}

/** '3 of 5 checks' with a bar. */
export function ChecksProgress({ done, total }: { done: number; total: number }) {
  const label = `${done} of ${total} checks`;
  return (
    <Group gap="xs" wrap="nowrap">
      <Progress
        value={total === 0 ? 0 : (done / total) * 100}
        w={64}
        size="sm"
        color={done === total && total > 0 ? 'teal' : 'blue'}
        aria-label={label}
      />
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {label}
      </Text>
    </Group>
  );
}
