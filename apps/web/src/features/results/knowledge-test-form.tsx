import { knowledgeTestResultSchema, MESSAGES } from '@kestrel/domain';
import { Button, Group, Radio, Stack, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { request } from '../../api/client';
import { notify } from '../../lib/notify';
import { ErrorSummary, type SummaryError } from './error-summary';
import type { OpsFormProps } from './registry';

/**
 * Operations' knowledge test pass/fail radio (spec point 2, Operations forms): the result of a
 * test taken on paper completes the activity. Shown while the test is open.
 */
export function KnowledgeTestForm({ activity }: OpsFormProps) {
  const client = useQueryClient();
  const [result, setResult] = useState('');
  const [error, setError] = useState('');
  const [attempt, setAttempt] = useState(0);
  const [saving, setSaving] = useState(false);
  if (activity.state === 'ca-complete' || activity.state === 'ca-cancelled') return null;
  const id = `knowledge-test-${activity.id}-result`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const check = knowledgeTestResultSchema.safeParse({ result: result || undefined });
    if (!check.success) {
      setError(MESSAGES.required);
      setAttempt((n) => n + 1);
      return;
    }
    setSaving(true);
    const r = await request<{ state: string }>(
      'POST',
      `/api/ops/case-activities/${activity.id}/knowledge-test-result/`,
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

  const summary: SummaryError[] = error ? [{ field: id, message: error, label: 'Result' }] : [];
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby={`${id}-title`}
      data-testid="knowledge-test-form"
    >
      <Stack gap="sm">
        <Title order={3} size="h5" id={`${id}-title`}>
          Knowledge test taken on paper
        </Title>
        <ErrorSummary errors={summary} attempt={attempt} />
        <Radio.Group
          id={id}
          label="Result"
          withAsterisk
          value={result}
          onChange={setResult}
          error={error || undefined}
        >
          <Group mt="xs">
            <Radio value="pass" label="Pass" />
            <Radio value="fail" label="Fail" />
          </Group>
        </Radio.Group>
        <Group>
          <Button type="submit" loading={saving}>
            Save result
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
