import { davisEmailSchema, readResultData } from '@kestrel/domain';
import { Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { request } from '../../api/client';
import { notify } from '../../lib/notify';
import { ErrorSummary, type SummaryError } from './error-summary';
import type { OpsFormProps } from './registry';

/**
 * Operations' Davis email confirmation (spec points 2 and 5): the driver's email confirmed to the
 * licence-checking service ('Required', 'Invalid email'). Shown while the check is open.
 */
export function DavisEmailForm({ activity }: OpsFormProps) {
  const client = useQueryClient();
  const saved = readResultData('licence-check', activity.result_data).confirmed_email ?? '';
  const [email, setEmail] = useState(saved);
  const [error, setError] = useState('');
  const [attempt, setAttempt] = useState(0);
  const [saving, setSaving] = useState(false);
  if (activity.state === 'ca-complete' || activity.state === 'ca-cancelled') return null;
  const id = `davis-email-${activity.id}`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const check = davisEmailSchema.safeParse({ email: email.trim() });
    if (!check.success) {
      setError(check.error.issues[0]?.message ?? 'Invalid email');
      setAttempt((n) => n + 1);
      return;
    }
    setSaving(true);
    const r = await request<{ state: string }>(
      'POST',
      `/api/ops/case-activities/${activity.id}/davis-email/`,
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

  const summary: SummaryError[] = error ? [{ field: id, message: error, label: 'Email' }] : [];
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby={`${id}-title`}
      data-testid="davis-email-form"
    >
      <Stack gap="sm">
        <Title order={3} size="h5" id={`${id}-title`}>
          Davis email confirmation
        </Title>
        <ErrorSummary errors={summary} attempt={attempt} />
        <TextInput
          id={id}
          label="Email"
          type="email"
          autoComplete="off"
          withAsterisk
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={error || undefined}
        />
        <Group>
          <Button type="submit" loading={saving}>
            Confirm email
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
