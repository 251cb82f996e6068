import { davisEmailSchema, readResultData } from '@kestrel/domain';
import { TextInput } from '@mantine/core';
import { useState } from 'react';
import { OpsFormFrame, postActivityAction, summaryOf, useOpsForm } from './ops-form';
import type { OpsFormProps } from './registry';

/**
 * Operations' Davis email confirmation (spec points 2 and 5): the driver's email confirmed to the
 * licence-checking service ('Required', 'Invalid email'). Shown while the check is open.
 */
export function DavisEmailForm({ activity }: OpsFormProps) {
  const saved = readResultData('licence-check', activity.result_data).confirmed_email ?? '';
  const [email, setEmail] = useState(saved);
  const form = useOpsForm();
  if (activity.state === 'ca-complete' || activity.state === 'ca-cancelled') return null;
  const id = `davis-email-${activity.id}`;

  const submit = () =>
    form.submitField(
      'email',
      davisEmailSchema.safeParse({ email: email.trim() }),
      'Invalid email',
      (data) => postActivityAction(activity.id, 'davis-email', data),
    );

  return (
    <OpsFormFrame
      titleId={`${id}-title`}
      title="Davis email confirmation"
      testId="davis-email-form"
      summary={summaryOf(form.errors, () => id, { email: 'Email' })}
      form={form}
      submitLabel="Confirm email"
      onSubmit={submit}
    >
      <TextInput
        id={id}
        label="Email"
        type="email"
        autoComplete="off"
        withAsterisk
        value={email}
        onChange={(e) => setEmail(e.currentTarget.value)}
        error={form.errors.email}
      />
    </OpsFormFrame>
  );
}
