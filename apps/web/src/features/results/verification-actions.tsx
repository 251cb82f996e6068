import { NOTES_MAX_LENGTH, NOTES_ROWS, verifyDbsDetailsIn } from '@kestrel/domain';
import { Button, Group, Stack, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { actionErrorMessage, failureMessage } from '../../api/messages';
import { notify } from '../../lib/notify';
import { type ApiFamily, type DbsDetails, dbsDetailsAction } from './results-api';

const ITEM = 'DBS details';

/**
 * Verification and countersigning of a DBS application (customer staff with the right or
 * operations): 'Verify identity' while awaiting verification, with the discrepancies found
 * against the documents (optional), and 'Countersign' once verified.
 */
export function VerificationActions({
  caseId,
  details,
  family,
}: {
  caseId: number;
  details: DbsDetails;
  family: Exclude<ApiFamily, 'subject'>;
}) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [notes, setNotes] = useState(details.discrepancy_notes ?? '');
  const [notesError, setNotesError] = useState<string | null>(null);
  const action =
    details.state === 'pending' ? 'verify' : details.state === 'verified' ? 'countersign' : null;
  if (!action) return null;
  const fieldId = `dbs-discrepancy-notes-${caseId}`;
  const run = async () => {
    let body: object = {};
    if (action === 'verify') {
      const check = verifyDbsDetailsIn.safeParse({ discrepancy_notes: notes });
      if (!check.success) {
        setNotesError(check.error.issues[0]?.message ?? null);
        return;
      }
      setNotesError(null);
      body = check.data.discrepancy_notes
        ? { discrepancy_notes: check.data.discrepancy_notes }
        : {};
    }
    setBusy(true);
    const r = await dbsDetailsAction(family, caseId, action, body);
    setBusy(false);
    if (r.ok) {
      notify.success('Successfully updated DBS details');
      await client.invalidateQueries();
    } else {
      const fieldError = r.data.discrepancy_notes;
      if (Array.isArray(fieldError)) setNotesError(fieldError.join(' '));
      notify.error(
        failureMessage(r, { action: 'update', name: ITEM, showBackendErrors: true }) ??
          actionErrorMessage('update', ITEM),
      );
    }
  };
  const button = (
    <Button h={44} onClick={run} loading={busy} data-testid={`dbs-${action}`}>
      {action === 'verify' ? 'Verify identity' : 'Countersign'}
    </Button>
  );
  if (action === 'countersign') return <Group>{button}</Group>;
  return (
    <Stack gap="xs" w="100%" maw={560} data-testid="dbs-verify-step">
      <Textarea
        id={fieldId}
        label="Discrepancy notes"
        description={`Optional. Anything in the documents that does not match the application. ${notes.length} / ${NOTES_MAX_LENGTH}`}
        rows={NOTES_ROWS}
        value={notes}
        onChange={(e) => {
          setNotes(e.currentTarget.value);
          setNotesError(null);
        }}
        error={notesError ?? undefined}
      />
      <Group>{button}</Group>
    </Stack>
  );
}
