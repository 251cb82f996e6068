import {
  ADULT_FIRST_RESULTS,
  ADULT_FIRST_STAGE_LABELS,
  adultFirstPendingSchema,
  adultFirstRequestedSchema,
} from '@kestrel/domain';
import { NativeSelect, Radio, Skeleton, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { issuesByField } from '../../components/form-kit';
import { href } from '../../config/paths';
import { OpsFormFrame, serverFieldErrors, summaryOf, useOpsForm } from './ops-form';
import { getServicedStage, postProgress } from './results-api';

const LABELS: Record<string, string> = {
  dbs_case: 'DBS case',
  reference: 'Reference',
  e_number: 'E-number',
  result: 'Result',
};

/**
 * The adult-first staged form (operations, spec point 5): at pending the linked DBS case and
 * the reference are required; at requested a result is. Saving the result sends operations to
 * the outstanding activity list.
 */
export function AdultFirstForm({ activityId }: { activityId: number }) {
  const navigate = useNavigate();
  const stage = useQuery({
    queryKey: ['/api/ops/case-activities/', 'serviced-stage', activityId],
    queryFn: async () => {
      const r = await getServicedStage(activityId);
      if (!r.ok) throw new Error('Error retrieving serviced stage');
      return r.data;
    },
  });
  const [dbsCase, setDbsCase] = useState<string | null>(null);
  const [reference, setReference] = useState('');
  const [eNumber, setENumber] = useState('');
  const [result, setResult] = useState('');
  const form = useOpsForm();
  const { errors } = form;
  const s = stage.data;
  if (!s) return stage.isError ? null : <Skeleton h={120} />;
  if (s.stage === 'result-received') return null;
  const id = (field: string) => `adult-first-${activityId}-${field}`;
  const chosenCase =
    dbsCase ?? (s.dbs_case_options.length === 1 ? String(s.dbs_case_options[0]?.id) : null);

  const submit = async () => {
    const data =
      s.stage === 'pending'
        ? {
            dbs_case: chosenCase ? Number(chosenCase) : undefined,
            reference: reference.trim(),
            ...(eNumber.trim() ? { e_number: eNumber.trim() } : {}),
          }
        : { result: ADULT_FIRST_RESULTS.find((o) => o.value === result)?.value };
    const check = (
      s.stage === 'pending' ? adultFirstPendingSchema : adultFirstRequestedSchema
    ).safeParse(data);
    if (!check.success) {
      form.refuse(issuesByField(check.error.issues));
      return;
    }
    const r = await form.save(
      () => postProgress(activityId, { stage: s.stage, data }),
      (body) => serverFieldErrors(body, /^data\./),
    );
    if (r.ok && r.data.stage === 'result-received') navigate(href('ops:outstanding-activities'));
  };

  return (
    <OpsFormFrame
      titleId={id('title')}
      title={<>Adult first: {ADULT_FIRST_STAGE_LABELS[s.stage]}</>}
      testId="adult-first-form"
      summary={summaryOf(errors, id, LABELS)}
      form={form}
      submitLabel={s.stage === 'pending' ? 'Save request' : 'Save result'}
      submitHeight={44}
      submitJustify="flex-end"
      onSubmit={submit}
    >
      {s.stage === 'pending' ? (
        <>
          <NativeSelect
            id={id('dbs_case')}
            label="DBS case"
            withAsterisk
            data={[
              { value: '', label: 'Choose a DBS case' },
              ...s.dbs_case_options.map((o) => ({ value: String(o.id), label: o.label })),
            ]}
            value={chosenCase ?? ''}
            onChange={(e) => setDbsCase(e.currentTarget.value)}
            error={errors.dbs_case}
          />
          <TextInput
            id={id('reference')}
            label="Reference"
            withAsterisk
            value={reference}
            onChange={(e) => setReference(e.currentTarget.value)}
            error={errors.reference}
          />
          <TextInput
            id={id('e_number')}
            label="E-number (optional)"
            value={eNumber}
            onChange={(e) => setENumber(e.currentTarget.value)}
            error={errors.e_number}
          />
        </>
      ) : (
        <Radio.Group
          label="Result"
          withAsterisk
          value={result}
          onChange={setResult}
          error={errors.result}
        >
          <Stack gap="xs" mt={4}>
            {ADULT_FIRST_RESULTS.map((o, i) => (
              <Radio
                key={o.value}
                id={i === 0 ? id('result') : undefined}
                value={o.value}
                label={o.label}
                styles={{ body: { minHeight: 44, alignItems: 'center' } }}
              />
            ))}
          </Stack>
        </Radio.Group>
      )}
    </OpsFormFrame>
  );
}
