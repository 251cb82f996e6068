import '@mantine/core/styles/Timeline.css';
import { LICENCE_STATUS_LABELS, type LicenceEventOut } from '@kestrel/domain';
import { Stack, Text, Timeline } from '@mantine/core';
import { formatDateTime } from '../../../lib/date-time';

const DONE: Record<LicenceEventOut['action'], string> = {
  issue: 'Issued',
  suspend: 'Suspended',
  revoke: 'Revoked',
  reinstate: 'Reinstated',
  surrender: 'Surrendered',
};

/** The licence's event trail, newest first: what was done, by whom, when and why. */
export function LicenceTrail({ events }: { events: readonly LicenceEventOut[] }) {
  const newestFirst = [...events].reverse();
  if (newestFirst.length === 0) return <Text c="dimmed">Nothing recorded yet.</Text>;
  return (
    <Timeline bulletSize={14} lineWidth={2} active={0}>
      {newestFirst.map((e) => (
        <Timeline.Item
          key={e.id}
          title={
            <Text fw={600} size="sm">
              {DONE[e.action]}
              {e.from_status &&
                ` (${LICENCE_STATUS_LABELS[e.from_status]} → ${LICENCE_STATUS_LABELS[e.to_status]})`}
            </Text>
          }
        >
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              {e.actor_name || 'The system'} · {formatDateTime(e.created_at)}
            </Text>
            {e.reason && (
              <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                {e.reason}
              </Text>
            )}
          </Stack>
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
