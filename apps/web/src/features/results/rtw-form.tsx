import {
  isActivityOpen,
  RTW_DOCUMENT_TYPES,
  RTW_MANUAL_OUTCOMES,
  RTW_OUTCOME_LABELS,
  rtwManualCheckIn,
} from '@kestrel/domain';
import { MultiSelect, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { issuesByField } from '../../components/form-kit';
import { OpsFormFrame, postActivityAction, summaryOf, useOpsForm } from './ops-form';
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
  const [outcome, setOutcome] = useState('');
  const [expiry, setExpiry] = useState('');
  const [documents, setDocuments] = useState<string[]>([]);
  const [notes, setNotes] = useState('');
  const form = useOpsForm();
  if (!isActivityOpen(activity.state)) return null;
  const id = (field: string) => `rtw-check-${activity.id}-${field}`;
  const { errors } = form;

  const submit = async () => {
    const body = {
      outcome: outcome || undefined,
      ...(outcome === 'time-limited' ? { expiry_date: expiry } : {}),
      documents,
      notes: notes.trim(),
    };
    const check = rtwManualCheckIn.safeParse(body);
    if (!check.success) {
      form.refuse(issuesByField(check.error.issues));
      return;
    }
    await form.save(() => postActivityAction(activity.id, 'rtw-check', body));
  };

  return (
    <OpsFormFrame
      titleId={id('title')}
      title="Manual right to work check"
      testId="rtw-check-form"
      summary={summaryOf(errors, id, LABELS)}
      form={form}
      submitLabel="Save check"
      submitHeight={44}
      onSubmit={submit}
    >
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
    </OpsFormFrame>
  );
}
