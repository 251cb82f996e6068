import { Button, Group, Modal, Radio, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { href } from '../../../app/paths';
import { type CaseDetail, useCaseAction } from '../api/cases';
import { useRights } from './rights';

const OPEN = ['pending', 'awaiting-subject', 'in-progress', 'pending-case-decision'];

/** The case's actions, each shown only when the user may take it and the state allows it. */
export function CaseActions({ item }: { item: CaseDetail }) {
  const { can } = useRights();
  const [dialog, setDialog] = useState<'decision' | 'cancel' | null>(null);
  const [decision, setDecision] = useState<string>('satisfactory');
  const [text, setText] = useState('');
  const decide = useCaseAction('record_decision');
  const cancel = useCaseAction('cancel');
  const remind = useCaseAction<{ detail: string }>('send-reminder', 'Reminder sent');
  const change = can('cases.change_case');
  const close = () => {
    setDialog(null);
    setText('');
  };
  const submit = async () => {
    const done =
      dialog === 'decision'
        ? await decide.mutateAsync({ id: item.id, body: { decision, notes: text } })
        : await cancel.mutateAsync({ id: item.id, body: { reason: text } });
    if (done) close();
  };
  return (
    <Group gap="sm">
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
        <Button variant="default" color="red" onClick={() => setDialog('cancel')}>
          Cancel case
        </Button>
      )}
      {can('cases.archive') && item.archivable && !item.is_archived && (
        <Button variant="default" component={Link} to={href('case-archive', { id: item.id })}>
          Archive
        </Button>
      )}
      {change && item.state === 'pending-case-decision' && (
        <Button onClick={() => setDialog('decision')}>Record decision</Button>
      )}
      <Modal
        opened={dialog !== null}
        onClose={close}
        title={dialog === 'decision' ? 'Record decision' : 'Cancel case'}
      >
        <Stack gap="md">
          {dialog === 'decision' ? (
            <Radio.Group label="Decision" value={decision} onChange={setDecision} required>
              <Stack gap="xs" mt="xs">
                <Radio value="satisfactory" label="Satisfactory" />
                <Radio value="unsatisfactory" label="Unsatisfactory" />
              </Stack>
            </Radio.Group>
          ) : (
            <Text size="sm">
              Every open check on this case stops. A cancelled case cannot be reopened.
            </Text>
          )}
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
              {dialog === 'decision' ? 'Record decision' : 'Cancel case'}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}
