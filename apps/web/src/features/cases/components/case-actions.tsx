import { Button, Group, Modal, Radio, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { type CaseDetail, cases, useCaseAction } from '../../../api/cases';
import { request } from '../../../api/client';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { RaiseFlagButton } from '../../flags/components/raise-flag';

const OPEN = ['pending', 'awaiting-subject', 'in-progress', 'pending-case-decision'];

/** Logs the PDF generation (audit) and opens the browser's print dialog. */
async function printCase(caseId: number): Promise<void> {
  await request('POST', `/api/cases/${caseId}/log-pdf-generation/`, { body: {} });
  window.print();
}

/** The case's actions, each shown only when the user may take it and the state allows it. */
export function CaseActions({ item }: { item: CaseDetail }) {
  const { can } = useRights();
  const [dialog, setDialog] = useState<'decision' | 'cancel' | null>(null);
  // The dialog's kind stays while it fades out; `open` shows it.
  const [open, setOpen] = useState(false);
  const show = (kind: 'decision' | 'cancel') => {
    setDialog(kind);
    setOpen(true);
  };
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
    const done =
      dialog === 'decision'
        ? await decide.mutateAsync({ id: item.id, body: { decision, notes: text } })
        : await cancel.mutateAsync({ id: item.id, body: { reason: text } });
    if (done) close();
  };
  const titles = { decision: 'Record decision', cancel: 'Cancel case' };
  return (
    <Group gap="sm">
      <Button variant="subtle" onClick={() => void printCase(item.id)}>
        Print
      </Button>
      {can('flags.change_flag') && (
        <RaiseFlagButton
          target={{ case: item.id }}
          onRaised={() => client.invalidateQueries({ queryKey: cases.key })}
        />
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
            label={dialog === 'decision' ? 'Notes' : 'Reason'}
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
              loading={decide.isPending || cancel.isPending}
            >
              {dialog ? titles[dialog] : ''}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}
