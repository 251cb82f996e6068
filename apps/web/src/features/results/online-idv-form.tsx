import { idvManualApprovalIn, isActivityOpen } from '@kestrel/domain';
import { Button, Group, Stack, Textarea, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { request } from '../../api/client';
import { notify } from '../../lib/notify';
import { ErrorSummary, type SummaryError } from './error-summary';
import type { OpsFormProps } from './registry';

/**
 * Operations approve an identity by hand (spec point 3's manual_idv_approved): a reason is
 * required; the approval is audited and completes the online identity activity. Shown while it
 * is open.
 */
export function IdvApprovalForm({ activity }: OpsFormProps) {
  const client = useQueryClient();
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [attempt, setAttempt] = useState(0);
  const [saving, setSaving] = useState(false);
  if (!isActivityOpen(activity.state)) return null;
  const id = `idv-approval-${activity.id}-reason`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const check = idvManualApprovalIn.safeParse({ reason });
    if (!check.success) {
      setError(check.error.issues[0]?.message ?? 'Required');
      setAttempt((n) => n + 1);
      return;
    }
    setSaving(true);
    const r = await request<{ state: string }>(
      'POST',
      `/api/ops/case-activities/${activity.id}/idv-approve/`,
      { body: check.data },
    );
    setSaving(false);
    if (!r.ok) {
      const messages = Object.values(r.data).flatMap((v) => (Array.isArray(v) ? v : []));
      setError(messages.join(' ') || 'An error has occurred');
      setAttempt((n) => n + 1);
      notify.error('Error updating case activity');
      return;
    }
    setError('');
    notify.success('Successfully updated case activity');
    await client.invalidateQueries();
  };

  const summary: SummaryError[] = error ? [{ field: id, message: error, label: 'Reason' }] : [];
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby={`${id}-title`}
      data-testid="idv-approval-form"
    >
      <Stack gap="sm">
        <Title order={3} size="h5" id={`${id}-title`}>
          Approve the identity manually
        </Title>
        <ErrorSummary errors={summary} attempt={attempt} />
        <Textarea
          id={id}
          label="Reason"
          description="Why the identity is approved without the online check (for example, documents seen in person)."
          withAsterisk
          autosize
          minRows={3}
          maxLength={400}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={error || undefined}
        />
        <Group>
          <Button type="submit" h={44} loading={saving}>
            Approve identity
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
