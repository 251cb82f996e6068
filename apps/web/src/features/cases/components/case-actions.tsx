import { Button, Group, Modal, Radio, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { request } from '../../../api/client';
import { actionSuccessMessage, failureMessage } from '../../../api/messages';
import { href } from '../../../app/paths';
import { getSession, setSession } from '../../../app/session/session-store';
import { notify } from '../../../lib/notify';
import { type CaseDetail, cases, useCaseAction } from '../api/cases';
import { useRights } from './rights';

const OPEN = ['pending', 'awaiting-subject', 'in-progress', 'pending-case-decision'];

/** Raises a flag on the case by hand; the navigation badge follows. */
async function raiseFlag(caseId: number, message: string): Promise<boolean> {
  const r = await request('POST', '/api/flags/', { body: { case: caseId, message }, expect: 201 });
  if (!r.ok) {
    const text = failureMessage(r, { action: 'create', name: 'flag', showBackendErrors: true });
    if (text) notify.error(text);
    return false;
  }
  notify.success(actionSuccessMessage('create', 'flag'));
  const count = await request<{ active: number }>('GET', '/api/flags/active-count/', {
    expect: 200,
  });
  if (count.ok) {
    const { bootstrap } = getSession();
    setSession({
      activeFlags: count.data.active,
      bootstrap: bootstrap ? { ...bootstrap, activeFlags: count.data.active } : bootstrap,
    });
  }
  return true;
}

/** Logs the PDF generation (audit) and opens the browser's print dialog. */
async function printCase(caseId: number): Promise<void> {
  await request('POST', `/api/cases/${caseId}/log-pdf-generation/`, { body: {} });
  window.print();
}

/** The case's actions, each shown only when the user may take it and the state allows it. */
export function CaseActions({ item }: { item: CaseDetail }) {
  const { can } = useRights();
  const [dialog, setDialog] = useState<'decision' | 'cancel' | 'flag' | null>(null);
  // The dialog's kind stays while it fades out; `open` shows it.
  const [open, setOpen] = useState(false);
  const show = (kind: 'decision' | 'cancel' | 'flag') => {
    setDialog(kind);
    setOpen(true);
  };
  const [flagging, setFlagging] = useState(false);
  const [decision, setDecision] = useState<string>('satisfactory');
  const [text, setText] = useState('');
  const decide = useCaseAction('record_decision');
  const cancel = useCaseAction('cancel');
  const remind = useCaseAction<{ detail: string }>('send-reminder', 'Reminder sent');
  const change = can('cases.change_case');
  const client = useQueryClient();
  const close = () => {
    setOpen(false);
    setText('');
  };
  const submit = async () => {
    if (dialog === 'flag') {
      if (!text.trim()) return;
      setFlagging(true);
      const ok = await raiseFlag(item.id, text.trim());
      setFlagging(false);
      if (ok) {
        close();
        await client.invalidateQueries({ queryKey: cases.key });
      }
      return;
    }
    const done =
      dialog === 'decision'
        ? await decide.mutateAsync({ id: item.id, body: { decision, notes: text } })
        : await cancel.mutateAsync({ id: item.id, body: { reason: text } });
    if (done) close();
  };
  const titles = { decision: 'Record decision', cancel: 'Cancel case', flag: 'Raise a flag' };
  return (
    <Group gap="sm">
      <Button variant="subtle" onClick={() => void printCase(item.id)}>
        Print
      </Button>
      {can('flags.change_flag') && (
        <Button variant="default" onClick={() => show('flag')}>
          Raise flag
        </Button>
      )}
      {change && item.state === 'awaiting-subject' && (
        <Button
          variant="default"
          loading={remind.isPending}
          onClick={() => remind.mutate({ id: item.id })}
        >
          Send reminder
        </Button>
      )}
      {change && OPEN.includes(item.state) && (
        <Button variant="default" color="red" onClick={() => show('cancel')}>
          Cancel case
        </Button>
      )}
      {can('cases.archive') && item.archivable && !item.is_archived && (
        <Button variant="default" component={Link} to={href('case-archive', { id: item.id })}>
          Archive
        </Button>
      )}
      {change && item.state === 'pending-case-decision' && (
        <Button onClick={() => show('decision')}>Record decision</Button>
      )}
      <Modal opened={open} onClose={close} title={dialog ? titles[dialog] : ''}>
        <Stack gap="md">
          {dialog === 'decision' ? (
            <Radio.Group label="Decision" value={decision} onChange={setDecision} required>
              <Stack gap="xs" mt="xs">
                <Radio value="satisfactory" label="Satisfactory" />
                <Radio value="unsatisfactory" label="Unsatisfactory" />
              </Stack>
            </Radio.Group>
          ) : dialog === 'cancel' ? (
            <Text size="sm">
              Every open check on this case stops. A cancelled case cannot be reopened.
            </Text>
          ) : null}
          <Textarea
            label={dialog === 'decision' ? 'Notes' : dialog === 'flag' ? 'Message' : 'Reason'}
            required={dialog === 'flag'}
            autosize
            minRows={3}
            maxLength={400}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Back
            </Button>
            <Button
              color={dialog === 'cancel' ? 'red' : undefined}
              onClick={submit}
              loading={decide.isPending || cancel.isPending || flagging}
              disabled={dialog === 'flag' && !text.trim()}
            >
              {dialog ? titles[dialog] : ''}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}
