import { formatDate } from '@kestrel/domain';
import {
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { actionErrorMessage } from '../../api/messages';
import { notify } from '../../lib/notify';
import { useRights } from '../../lib/rights';
import { useCaseRetention, useCaseRetentionAction } from './api';

/**
 * The case's retention (issue 34): its legal hold (set or lifted with a reason by staff who may
 * change cases; while set, nothing of the case is redacted) and the end of the subject's
 * employment, from which right-to-work evidence is kept for the period the rules say.
 */
export function CaseRetentionCard({ caseId }: { caseId: number }) {
  const rights = useRights();
  const q = useCaseRetention(caseId, rights.can('cases.view_case'));
  const act = useCaseRetentionAction(caseId);
  const [reason, setReason] = useState('');
  const [ended, setEnded] = useState<string | null>(null);
  if (!q.data) return null;
  const r = q.data;
  const canChange = rights.can('cases.change_case');
  const run = async (
    action: Parameters<typeof act.mutateAsync>[0],
    done: string,
  ): Promise<void> => {
    const res = await act.mutateAsync(action);
    if (res.ok) {
      notify.success(done);
      setReason('');
    } else notify.error(actionErrorMessage('update', 'case retention'));
  };
  const endedOn = ended ?? r.employment_ended_on ?? '';
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="case-retention-card">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3">
            Data retention
          </Title>
          {r.legal_hold ? (
            <Badge color="orange" data-testid="legal-hold-badge">
              Legal hold
            </Badge>
          ) : (
            <Badge variant="light" color="gray">
              Retention rules apply
            </Badge>
          )}
        </Group>
        {r.legal_hold ? (
          <Text size="sm">
            On legal hold since {formatDate(r.hold_set_at)} ({r.hold_set_by}): {r.hold_reason}.
            Nothing of this case is redacted while the hold lasts.
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            The organisation’s retention rules redact this case’s data when it falls due.
          </Text>
        )}
        {r.redactions.length > 0 && (
          <Text size="sm" data-testid="case-redaction-count">
            {r.redactions.length} item{r.redactions.length === 1 ? '' : 's'} redacted under the
            retention policy.
          </Text>
        )}
        {canChange && (
          <Stack gap="xs">
            <Textarea
              label={r.legal_hold ? 'Reason for lifting the hold' : 'Reason for a legal hold'}
              value={reason}
              maxLength={500}
              autosize
              minRows={1}
              onChange={(e) => setReason(e.currentTarget.value)}
            />
            <Group>
              <Button
                h={44}
                variant={r.legal_hold ? 'default' : 'filled'}
                disabled={reason.trim() === ''}
                loading={act.isPending}
                onClick={() =>
                  void run(
                    { kind: r.legal_hold ? 'lift' : 'hold', reason: reason.trim() },
                    r.legal_hold ? 'Legal hold lifted' : 'Legal hold set',
                  )
                }
              >
                {r.legal_hold ? 'Lift legal hold' : 'Set legal hold'}
              </Button>
            </Group>
            <Group align="flex-end">
              <TextInput
                type="date"
                label="Employment ended on"
                description="Right-to-work evidence is kept for the set period after this date."
                value={endedOn}
                onChange={(e) => setEnded(e.currentTarget.value)}
              />
              <Button
                h={44}
                variant="default"
                loading={act.isPending}
                onClick={() =>
                  void run(
                    { kind: 'employment-end', endedOn: endedOn === '' ? null : endedOn },
                    'End of employment saved',
                  )
                }
              >
                Save
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
