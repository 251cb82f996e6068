import { knowledgeTestResultSchema, MESSAGES } from '@kestrel/domain';
import { Group, Radio } from '@mantine/core';
import { useState } from 'react';
import {
  OpsFormFrame,
  postActivityAction,
  serverErrorsAs,
  summaryOf,
  useOpsForm,
} from './ops-form';
import type { OpsFormProps } from './registry';

/**
 * Operations' knowledge test pass/fail radio (spec point 2, Operations forms): the result of a
 * test taken on paper completes the activity. Shown while the test is open.
 */
export function KnowledgeTestForm({ activity }: OpsFormProps) {
  const [result, setResult] = useState('');
  const form = useOpsForm();
  if (activity.state === 'ca-complete' || activity.state === 'ca-cancelled') return null;
  const id = `knowledge-test-${activity.id}-result`;

  const submit = async () => {
    const check = knowledgeTestResultSchema.safeParse({ result: result || undefined });
    if (!check.success) {
      form.refuse({ result: MESSAGES.required });
      return;
    }
    await form.save(
      () => postActivityAction(activity.id, 'knowledge-test-result', check.data),
      serverErrorsAs('result'),
    );
  };

  return (
    <OpsFormFrame
      titleId={`${id}-title`}
      title="Knowledge test taken on paper"
      testId="knowledge-test-form"
      summary={summaryOf(form.errors, () => id, { result: 'Result' })}
      form={form}
      submitLabel="Save result"
      onSubmit={submit}
    >
      <Radio.Group
        id={id}
        label="Result"
        withAsterisk
        value={result}
        onChange={setResult}
        error={form.errors.result}
      >
        <Group mt="xs">
          <Radio value="pass" label="Pass" />
          <Radio value="fail" label="Fail" />
        </Group>
      </Radio.Group>
    </OpsFormFrame>
  );
}
