import { idvManualApprovalIn, isActivityOpen } from '@kestrel/domain';
import { Textarea } from '@mantine/core';
import { useState } from 'react';
import { OpsFormFrame, postActivityAction, summaryOf, useOpsForm } from './ops-form';
import type { OpsFormProps } from './registry';

/**
 * Operations approve an identity by hand (spec point 3's manual_idv_approved): a reason is
 * required; the approval is audited and completes the online identity activity. Shown while it
 * is open.
 */
export function IdvApprovalForm({ activity }: OpsFormProps) {
  const [reason, setReason] = useState('');
  const form = useOpsForm();
  if (!isActivityOpen(activity.state)) return null;
  const id = `idv-approval-${activity.id}-reason`;

  const submit = () =>
    form.submitField('reason', idvManualApprovalIn.safeParse({ reason }), 'Required', (data) =>
      postActivityAction(activity.id, 'idv-approve', data),
    );

  return (
    <OpsFormFrame
      titleId={`${id}-title`}
      title="Approve the identity manually"
      testId="idv-approval-form"
      summary={summaryOf(form.errors, () => id, { reason: 'Reason' })}
      form={form}
      submitLabel="Approve identity"
      submitHeight={44}
      onSubmit={submit}
    >
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
        error={form.errors.reason}
      />
    </OpsFormFrame>
  );
}
