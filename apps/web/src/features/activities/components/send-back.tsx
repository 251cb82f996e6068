import {
  ACTIVITY_KINDS,
  DBS_APPLICATION_LEVELS,
  isActivityKindCode,
  sendBackRefusal,
} from '@kestrel/domain';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Activity } from '../../../api/activities';
import { request } from '../../../api/client';
import { notify } from '../../../lib/notify';

/** Whether the domain lets staff send this activity back to its subject (sendBackRefusal). */
export function canSendBack(a: Activity): boolean {
  const kind = isActivityKindCode(a.activity_type) ? ACTIVITY_KINDS[a.activity_type] : null;
  return (
    sendBackRefusal({
      state: a.state,
      hasPortalSection: kind?.portalSection != null,
      processing: a.processing_data,
    }) === null
  );
}

/** The server's refusal (400 `{state: [...]}` or any other field or detail) as one text. */
function refusalOf(body: Readonly<Record<string, unknown>>): string {
  const lines: string[] = [];
  for (const value of Object.values(body)) {
    if (typeof value === 'string') lines.push(value);
    else if (Array.isArray(value)) lines.push(...value.filter((m) => typeof m === 'string'));
  }
  return lines.join(' ') || 'The check could not be sent back. Please try again.';
}

/**
 * "Send back to the person" (issue 27): staff return a check waiting for them to its subject
 * before anything goes to a provider; the person's portal reopens at Review & Submit. Confirmed
 * first; the server's refusal shows in the dialog; on success the case and activities refresh
 * and `onSent` runs. `path` is the activities' API (`/api/case-activities/` or the ops one).
 */
export function SendBackButton({
  activity: a,
  path = '/api/case-activities/',
  onSent,
}: {
  activity: Activity;
  path?: string;
  onSent?: () => void;
}) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState('');
  const name = `${a.case.subject.first_name} ${a.case.subject.last_name}`.trim() || 'the person';
  const close = () => {
    setOpen(false);
    setRefusal('');
  };
  const send = async () => {
    setSending(true);
    const res = await request<Activity>('PATCH', `${path}${a.id}/`, {
      body: { state: 'ca-awaiting-subject' },
    });
    setSending(false);
    if (!res.ok) {
      setRefusal(refusalOf(res.data));
      return;
    }
    // the case, its activities and the outstanding lists all change
    await client.invalidateQueries();
    setOpen(false);
    notify.success(`Sent back to ${name}`);
    onSent?.();
  };
  return (
    <>
      <Button variant="default" onClick={() => setOpen(true)}>
        Send back to the person
      </Button>
      <Modal opened={open} onClose={close} title="Send back to the person">
        <Stack gap="md">
          <Text size="sm">
            {a.activity_type_name} goes back to {name}: their portal reopens at Review &amp; Submit
            so they can change their answers and submit again. Nothing has been sent to the provider
            yet.
            {(DBS_APPLICATION_LEVELS as readonly string[]).includes(a.activity_type) &&
              ' Its identity verification is undone: it is verified and countersigned again.'}
          </Text>
          {refusal && (
            <Alert color="red" title="Not sent back" role="alert">
              {refusal}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Back
            </Button>
            <Button onClick={send} loading={sending} disabled={refusal !== ''}>
              Send back
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
