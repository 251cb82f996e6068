import { type CaseDocumentOut, REJECTION_REASON_MAX } from '@kestrel/domain';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { request } from '../../api/client';
import { notify } from '../../lib/notify';
import type { ApiFamily } from './data-panel-kit';

const BASE: Record<Exclude<ApiFamily, 'subject'>, string> = { customer: '/api', ops: '/api/ops' };

export const DOCUMENT_REVIEW_TEXTS = {
  reject: 'Reject',
  title: 'Reject document',
  reason: 'Reason',
  reasonHelp: 'The person is asked for a replacement and sees this reason in their portal.',
  confirm: 'Reject document',
  cancel: 'Cancel',
  rejected: 'Document rejected',
  rejectFailed: 'Error rejecting the document',
  accept: 'Accept documents',
  accepted: 'Documents accepted',
  acceptFailed: 'Error accepting the documents',
} as const;

/** The first message of a 400's fields, for the form. */
function firstError(data: Record<string, unknown>): string | null {
  for (const v of Object.values(data)) {
    if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
    if (typeof v === 'string') return v;
  }
  return null;
}

/**
 * Reject one document with a reason (POST .../case-documents/{id}/reject/): it leaves the
 * panels and the subject is asked for a replacement in the portal.
 */
export function RejectDocument({
  doc,
  family,
}: {
  doc: CaseDocumentOut;
  family: Exclude<ApiFamily, 'subject'>;
}) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const close = () => {
    setOpen(false);
    setReason('');
    setError(null);
  };
  const submit = async () => {
    const text = reason.trim();
    if (text === '') {
      setError('Required');
      return;
    }
    setBusy(true);
    const r = await request<CaseDocumentOut>(
      'POST',
      `${BASE[family]}/case-documents/${doc.id}/reject/`,
      { body: { reason: text }, expect: 200 },
    );
    setBusy(false);
    if (!r.ok) {
      const message = r.status === 400 ? firstError(r.data) : null;
      if (message) setError(message);
      else notify.error(DOCUMENT_REVIEW_TEXTS.rejectFailed);
      return;
    }
    notify.success(DOCUMENT_REVIEW_TEXTS.rejected);
    close();
    await client.invalidateQueries();
  };
  return (
    <>
      <Button
        variant="default"
        color="red"
        h={44}
        onClick={() => setOpen(true)}
        aria-label={`${DOCUMENT_REVIEW_TEXTS.reject} ${doc.document_type}`}
      >
        {DOCUMENT_REVIEW_TEXTS.reject}
      </Button>
      <Modal opened={open} onClose={close} title={DOCUMENT_REVIEW_TEXTS.title} centered>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Stack gap="md">
            <Text fw={600}>{doc.document_type}</Text>
            <Textarea
              id={`${id}-reason`}
              label={DOCUMENT_REVIEW_TEXTS.reason}
              description={DOCUMENT_REVIEW_TEXTS.reasonHelp}
              value={reason}
              onChange={(e) => {
                setReason(e.currentTarget.value);
                setError(null);
              }}
              maxLength={REJECTION_REASON_MAX}
              autosize
              minRows={3}
              error={error}
              withAsterisk
              data-autofocus
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" h={44} onClick={close}>
                {DOCUMENT_REVIEW_TEXTS.cancel}
              </Button>
              <Button type="submit" color="red" h={44} loading={busy}>
                {DOCUMENT_REVIEW_TEXTS.confirm}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

/**
 * The end of the documents' review: the document collection is complete (PATCH the activity's
 * state), once nothing is left to reject.
 */
export function AcceptDocuments({
  activityId,
  family,
}: {
  activityId: number;
  family: Exclude<ApiFamily, 'subject'>;
}) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const accept = async () => {
    setBusy(true);
    const r = await request('PATCH', `${BASE[family]}/case-activities/${activityId}/`, {
      body: { state: 'ca-complete' },
      expect: 200,
    });
    setBusy(false);
    if (!r.ok) {
      notify.error(DOCUMENT_REVIEW_TEXTS.acceptFailed);
      return;
    }
    notify.success(DOCUMENT_REVIEW_TEXTS.accepted);
    await client.invalidateQueries();
  };
  return (
    <Button h={44} onClick={accept} loading={busy} style={{ alignSelf: 'flex-start' }}>
      {DOCUMENT_REVIEW_TEXTS.accept}
    </Button>
  );
}
