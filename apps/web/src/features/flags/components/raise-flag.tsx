import { FLAG_MESSAGE_MAX } from '@kestrel/domain';
import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useState } from 'react';
import { request } from '../../../api/client';
import { refreshActiveFlags } from '../../../api/flags';
import { actionSuccessMessage, failureMessage } from '../../../api/messages';
import { notify } from '../../../lib/notify';

/** What a flag is raised on: a case or a subject. */
export type FlagTarget = { case: number } | { subject: number };

/** Raises a flag by hand; the navigation badge follows. */
async function raiseFlag(target: FlagTarget, message: string): Promise<boolean> {
  const r = await request('POST', '/api/flags/', { body: { ...target, message }, expect: 201 });
  if (!r.ok) {
    const text = failureMessage(r, { action: 'create', name: 'flag', showBackendErrors: true });
    if (text) notify.error(text);
    return false;
  }
  notify.success(actionSuccessMessage('create', 'flag'));
  await refreshActiveFlags();
  return true;
}

/**
 * "Raise flag" and its dialog (a required message of up to 400 characters). `onRaised` runs
 * after the flag is saved (e.g. to refresh the page's data).
 */
export function RaiseFlagButton({
  target,
  onRaised,
}: {
  target: FlagTarget;
  onRaised?: () => Promise<unknown> | undefined;
}) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);
  const close = () => {
    setOpen(false);
    setText('');
  };
  const submit = async () => {
    if (!text.trim()) return;
    setSaving(true);
    const ok = await raiseFlag(target, text.trim());
    setSaving(false);
    if (ok) {
      close();
      await onRaised?.();
    }
  };
  return (
    <>
      <Button variant="default" onClick={() => setOpen(true)}>
        Raise flag
      </Button>
      <Modal opened={open} onClose={close} title="Raise a flag">
        <Stack gap="md">
          <Textarea
            label="Message"
            required
            autosize
            minRows={3}
            maxLength={FLAG_MESSAGE_MAX}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Back
            </Button>
            <Button onClick={submit} loading={saving} disabled={!text.trim()}>
              Raise a flag
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
