import { knowledgeTestResultSchema, MESSAGES } from '@kestrel/domain';
import { Group, Radio } from '@mantine/core';
import { useState } from 'react';
import { OpsFormFrame, postActivityAction, summaryOf, useOpsForm } from './ops-form';
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

  const submit = () =>
    form.submitField(
      'result',
      knowledgeTestResultSchema.safeParse({ result: result || undefined }),
      MESSAGES.required,
      (data) => postActivityAction(activity.id, 'knowledge-test-result', data),
    );

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
