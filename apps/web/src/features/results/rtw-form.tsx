import {
  isActivityOpen,
  RTW_DOCUMENT_TYPES,
  RTW_MANUAL_OUTCOMES,
  RTW_OUTCOME_LABELS,
  rtwManualCheckIn,
} from '@kestrel/domain';
import {
  Button,
  Group,
  MultiSelect,
  Radio,
  Stack,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { request } from '../../api/client';
import { notify } from '../../lib/notify';
import { ErrorSummary, issuesByField, type SummaryError } from './error-summary';
import type { OpsFormProps } from './registry';

const LABELS: Record<string, string> = {
  outcome: 'Result',
  expiry_date: 'Right to work ends',
  documents: 'Documents seen',
  notes: 'Notes',
};

/**
 * The manual right-to-work check (operations; the documents route, or an online check that
 * found nothing): the result, its end for a time-limited right, the documents seen from the
 * right-to-work list, a note. Completes the activity.
 */
export function RtwCheckForm({ activity }: OpsFormProps) {
  const client = useQueryClient();
  const [outcome, setOutcome] = useState('');
  const [expiry, setExpiry] = useState('');
  const [documents, setDocuments] = useState<string[]>([]);
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [attempt, setAttempt] = useState(0);
  const [saving, setSaving] = useState(false);
  if (!isActivityOpen(activity.state)) return null;
  const id = (field: string) => `rtw-check-${activity.id}-${field}`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = {
      outcome: outcome || undefined,
      ...(outcome === 'time-limited' ? { expiry_date: expiry } : {}),
      documents,
      notes: notes.trim(),
    };
    const check = rtwManualCheckIn.safeParse(body);
    if (!check.success) {
      setErrors(issuesByField(check.error.issues));
      setAttempt((n) => n + 1);
      return;
    }
    setSaving(true);
    const r = await request<{ state: string }>(
      'POST',
      `/api/ops/case-activities/${activity.id}/rtw-check/`,
      { body },
    );
    setSaving(false);
    if (!r.ok) {
      const fieldErrors: Record<string, string> = {};
      for (const [key, value] of Object.entries(r.data)) {
        if (Array.isArray(value)) fieldErrors[key] = value.join(' ');
      }
      setErrors(fieldErrors);
      setAttempt((n) => n + 1);
      notify.error('Error updating case activity');
      return;
    }
    setErrors({});
    notify.success('Successfully updated case activity');
    await client.invalidateQueries();
  };

  const summary: SummaryError[] = Object.entries(errors).map(([field, message]) => ({
    field: id(field),
    message,
    label: LABELS[field] ?? field,
  }));
  return (
    <form onSubmit={submit} noValidate aria-labelledby={id('title')} data-testid="rtw-check-form">
      <Stack gap="sm">
        <Title order={3} size="h5" id={id('title')}>
          Manual right to work check
        </Title>
        <ErrorSummary errors={summary} attempt={attempt} />
        <Radio.Group
          id={id('outcome')}
          label="Result"
          withAsterisk
          value={outcome}
          onChange={setOutcome}
          error={errors.outcome}
        >
          <Stack gap="xs" mt={4}>
            {RTW_MANUAL_OUTCOMES.map((o) => (
              <Radio
                key={o}
                value={o}
                label={RTW_OUTCOME_LABELS[o]}
                styles={{ body: { minHeight: 44, alignItems: 'center' } }}
              />
            ))}
          </Stack>
        </Radio.Group>
        {outcome === 'time-limited' && (
          <TextInput
            id={id('expiry_date')}
            type="date"
            label="Right to work ends"
            withAsterisk
            value={expiry}
            onChange={(e) => setExpiry(e.currentTarget.value)}
            error={errors.expiry_date}
          />
        )}
        <MultiSelect
          id={id('documents')}
          label="Documents seen"
          withAsterisk={outcome !== 'no-right'}
          searchable
          data={RTW_DOCUMENT_TYPES.map((d) => ({ value: d.code, label: d.name }))}
          value={documents}
          onChange={setDocuments}
          error={errors.documents}
        />
        <Textarea
          id={id('notes')}
          label="Notes"
          autosize
          minRows={2}
          maxLength={400}
          value={notes}
          onChange={(e) => setNotes(e.currentTarget.value)}
          error={errors.notes}
        />
        <Group>
          <Button type="submit" h={44} loading={saving}>
            Save check
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
