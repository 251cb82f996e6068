import { formatDate, type InvitationStatusOut, isCaseOpen } from '@kestrel/domain';
import { Alert, Button, Checkbox, Group, Modal, Radio, Stack, Text, Textarea } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { type CaseDetail, cases, useCaseAction } from '../../../api/cases';
import { request } from '../../../api/client';
import { StateBadge } from '../../../components/state-badge';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { RaiseFlagButton } from '../../flags';

/**
 * Logs the PDF generation (audit), puts the case report on the page (`beforePrint`) and opens
 * the browser's print dialog.
 */
async function printCase(caseId: number, beforePrint?: () => void): Promise<void> {
  await request('POST', `/api/cases/${caseId}/log-pdf-generation/`, { body: {} });
  beforePrint?.();
  window.print();
}

/** The checks of a case and whether any is cancelled or not complete (the decision's warning). */
function DecisionChecks({ item }: { item: CaseDetail }) {
  const checks = item.case_activities;
  const cancelled = checks.filter((a) => a.state === 'ca-cancelled').length;
  const unfinished = checks.filter(
    (a) => a.state !== 'ca-complete' && a.state !== 'ca-cancelled',
  ).length;
  const warnings = [
    cancelled > 0 && `${cancelled} ${cancelled === 1 ? 'check was' : 'checks were'} cancelled.`,
    unfinished > 0 && `${unfinished} ${unfinished === 1 ? 'check is' : 'checks are'} not complete.`,
  ].filter((w): w is string => typeof w === 'string');
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        Checks on this case
      </Text>
      {checks.length === 0 ? (
        <Text size="sm" c="dimmed">
          This case has no checks.
        </Text>
      ) : (
        <Stack
          component="ul"
          gap={6}
          m={0}
          p={0}
          style={{ listStyle: 'none' }}
          data-testid="decision-checks"
        >
          {checks.map((a) => (
            <Group component="li" key={a.id} gap="xs" justify="space-between" wrap="nowrap">
              <Text size="sm">{a.activity_type_name}</Text>
              <StateBadge state={a.state} label={a.state_display} />
            </Group>
          ))}
        </Stack>
      )}
      {warnings.length > 0 && (
        <Alert color="orange" title="Check before deciding" role="alert">
          {warnings.join(' ')} The decision closes the case for good.
        </Alert>
      )}
    </Stack>
  );
}

/**
 * An expired invitation (issue 33): its case waits for the customer, who resends it (a new link;
 * the old one no longer works) or cancels the case.
 */
function ResendInvitation({ caseId }: { caseId: number }) {
  const invitation = useQuery({
    queryKey: cases.keys.other('invitation', caseId),
    queryFn: async () => {
      const r = await request<InvitationStatusOut>('GET', `/api/cases/${caseId}/invitation/`, {
        expect: 200,
      });
      return r.ok ? r.data : null;
    },
  });
  const resend = useCaseAction<{ detail: string }>('resend-invitation', 'Invitation sent');
  const expired = invitation.data?.is_expired ? invitation.data.expired_at : null;
  if (!expired) return null;
  return (
    <Button
      variant="default"
      loading={resend.isPending}
      title={`The invitation expired on ${formatDate(expired)}`}
      onClick={() => resend.mutate({ id: caseId })}
    >
      Resend expired invitation
    </Button>
  );
}

/** The case's actions, each shown only when the user may take it and the state allows it. */
export function CaseActions({
  item,
  beforePrint,
}: {
  item: CaseDetail;
  /** Called just before the print dialog opens (the case report mounts; see usePrintReport). */
  beforePrint?: () => void;
}) {
  const { can } = useRights();
  const [dialog, setDialog] = useState<'decision' | 'cancel' | null>(null);
  // The dialog's kind stays while it fades out; `open` shows it.
  const [open, setOpen] = useState(false);
  const show = (kind: 'decision' | 'cancel') => {
    setDialog(kind);
    setOpen(true);
  };
  // Nothing is preselected: the decision is a deliberate choice, confirmed below.
  const [decision, setDecision] = useState<string>('');
  const [confirmed, setConfirmed] = useState(false);
  const [text, setText] = useState('');
  const decide = useCaseAction('record_decision');
  const cancel = useCaseAction('cancel');
  const remind = useCaseAction<{ detail: string }>('send-reminder', 'Reminder sent');
  const change = can('cases.change_case');
  const client = useQueryClient();
  const close = () => {
    setOpen(false);
    setText('');
    setDecision('');
    setConfirmed(false);
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
      <Button variant="subtle" onClick={() => void printCase(item.id, beforePrint)}>
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
      {change && item.state === 'in-progress' && <ResendInvitation caseId={item.id} />}
      {change && isCaseOpen(item.state) && (
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
            <>
              <DecisionChecks item={item} />
              <Radio.Group label="Decision" value={decision} onChange={setDecision} required>
                <Stack gap="xs" mt="xs">
                  <Radio value="satisfactory" label="Satisfactory" />
                  <Radio value="unsatisfactory" label="Unsatisfactory" />
                </Stack>
              </Radio.Group>
            </>
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
          {dialog === 'decision' && (
            <Checkbox
              label="I have reviewed the checks above. Recording the decision closes this case and cannot be undone."
              checked={confirmed}
              onChange={(e) => setConfirmed(e.currentTarget.checked)}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Back
            </Button>
            <Button
              color={dialog === 'cancel' ? 'red' : undefined}
              onClick={submit}
              disabled={dialog === 'decision' && (decision === '' || !confirmed)}
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
