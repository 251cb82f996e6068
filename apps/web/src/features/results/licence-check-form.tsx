import { davisEmailSchema, readResultData } from '@kestrel/domain';
import { TextInput } from '@mantine/core';
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
 * Operations' Davis email confirmation (spec points 2 and 5): the driver's email confirmed to the
 * licence-checking service ('Required', 'Invalid email'). Shown while the check is open.
 */
export function DavisEmailForm({ activity }: OpsFormProps) {
  const saved = readResultData('licence-check', activity.result_data).confirmed_email ?? '';
  const [email, setEmail] = useState(saved);
  const form = useOpsForm();
  if (activity.state === 'ca-complete' || activity.state === 'ca-cancelled') return null;
  const id = `davis-email-${activity.id}`;

  const submit = async () => {
    const check = davisEmailSchema.safeParse({ email: email.trim() });
    if (!check.success) {
      form.refuse({ email: check.error.issues[0]?.message ?? 'Invalid email' });
      return;
    }
    await form.save(
      () => postActivityAction(activity.id, 'davis-email', check.data),
      serverErrorsAs('email'),
    );
  };

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
