import {
  formatDate,
  readResultData,
  TRUST_TO_RIDE_ATTENDANCE_LABELS,
  type TrustToRideSessionOut,
  trustToRideOutcome,
} from '@kestrel/domain';
import { Button, Group, Radio, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { request } from '../../api/client';
import { ErrorSummary } from '../../components/form-kit';
import { notify } from '../../lib/notify';
import { day, Facts, isCancelled, Note, PANEL_TEXTS, PanelFrame } from './panel-kit';
import type { ResultPanelProps } from './registry';

interface SubjectTrustToRide {
  id: number;
  state: string;
  sessions: TrustToRideSessionOut[];
}

const sessionLabel = (s: TrustToRideSessionOut) =>
  `${formatDate(s.date)} at ${s.time}, ${s.place} (${s.places_left} ${s.places_left === 1 ? 'place' : 'places'} left)`;

/** The subject books a place on one of its customer's upcoming sessions. */
function BookSession({ activityId }: { activityId: number }) {
  const client = useQueryClient();
  const key = ['/api/s/trust-to-ride/activities/', activityId];
  const sessions = useQuery({
    queryKey: key,
    queryFn: async () => {
      const r = await request<SubjectTrustToRide>(
        'GET',
        `/api/s/trust-to-ride/activities/${activityId}/`,
      );
      if (!r.ok) throw new Error('Error retrieving sessions');
      return r.data;
    },
  });
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState('');
  const [attempt, setAttempt] = useState(0);
  const [saving, setSaving] = useState(false);
  if (sessions.isError) return null;
  if (!sessions.data) return <Skeleton h={60} />;
  const list = sessions.data.sessions;
  if (list.length === 0)
    return <Note>No session has a place left yet. Please check back later.</Note>;
  const id = `trust-to-ride-${activityId}-session`;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) {
      setError('Required');
      setAttempt((n) => n + 1);
      return;
    }
    setSaving(true);
    const r = await request<SubjectTrustToRide>(
      'POST',
      `/api/s/trust-to-ride/activities/${activityId}/booking/`,
      { body: { session: Number(chosen) }, expect: 201 },
    );
    setSaving(false);
    if (!r.ok) {
      const messages = Object.values(r.data).flatMap((v) => (Array.isArray(v) ? v : []));
      setError(messages.join(' ') || 'An error has occurred');
      setAttempt((n) => n + 1);
      await client.invalidateQueries({ queryKey: key });
      return;
    }
    notify.success('Your place is booked');
    await client.invalidateQueries();
  };
  return (
    <form onSubmit={submit} noValidate data-testid="trust-to-ride-booking">
      <Stack gap="sm">
        <ErrorSummary
          errors={error ? [{ field: id, message: error, label: 'Session' }] : []}
          focusKey={attempt}
        />
        <Radio.Group
          id={id}
          label="Choose a session"
          withAsterisk
          value={chosen}
          onChange={setChosen}
          error={error || undefined}
        >
          <Stack gap="xs" mt="xs">
            {list.map((s) => (
              <Radio key={s.id} value={String(s.id)} label={sessionLabel(s)} />
            ))}
          </Stack>
        </Radio.Group>
        <Group>
          <Button type="submit" loading={saving} w={{ base: '100%', xs: 'auto' }}>
            Book this session
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Trust-to-ride (spec point 2): attended, or did not attend the session on its date; before that
 * the session booked (date, time, place). The subject books a place here while none is booked.
 */
export function TrustToRidePanel({ activity, audience }: ResultPanelProps) {
  const d = readResultData('trust-to-ride', activity.result_data);
  const open = activity.state !== 'ca-complete' && activity.state !== 'ca-cancelled';
  const cancelled = isCancelled(activity);
  const s = d.session;
  return (
    <PanelFrame testId="trust-to-ride-panel">
      <Text fw={600} data-testid="trust-to-ride-outcome">
        {cancelled && !s ? PANEL_TEXTS.cancelled : trustToRideOutcome(d)}
      </Text>
      {cancelled && s && <Note testId="trust-to-ride-cancelled">{PANEL_TEXTS.cancelled}</Note>}
      {s && (
        <Facts
          items={[
            ['Date', day(s.date)],
            ['Time', s.time],
            ['Place', s.place],
            [
              'Attendance',
              d.attendance
                ? TRUST_TO_RIDE_ATTENDANCE_LABELS[d.attendance]
                : cancelled
                  ? ''
                  : 'Not recorded yet',
            ],
          ]}
        />
      )}
      {!s && open && audience === 'subject' && <BookSession activityId={activity.id} />}
    </PanelFrame>
  );
}
