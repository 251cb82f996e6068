import '@mantine/core/styles/List.css';
import {
  type IdentityCheckOut,
  NOTES_MAX_LENGTH,
  NOTES_ROWS,
  verifyDbsDetailsIn,
} from '@kestrel/domain';
import { Alert, Button, Group, List, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { actionErrorMessage, failureMessage } from '../../api/messages';
import { notify } from '../../lib/notify';
import { type ApiFamily, type DbsDetails, dbsDetailsAction } from './results-api';

const ITEM = 'DBS details';

/** What the route met is called: basic checks have one route, the others three. */
const routeTitle = (check: IdentityCheckOut) =>
  check.level === 'basic' ? "The basic check's route" : `Route ${check.route}`;

/**
 * The evidence the identity is verified against (the server's reading of the case's documents
 * and online identity check): the route the documents meet and which documents count, or what
 * is still needed.
 */
export function IdentityEvidence({ check }: { check: IdentityCheckOut }) {
  if (!check.met) {
    return (
      <Alert color="yellow" title="The identity cannot be verified yet" data-testid="dbs-evidence">
        {check.problem}
      </Alert>
    );
  }
  if (check.basis === 'online') {
    return (
      <Text size="sm" data-testid="dbs-evidence">
        The online identity check has passed.
      </Text>
    );
  }
  return (
    <Stack gap={4} data-testid="dbs-evidence">
      <Text size="sm">{routeTitle(check)} is met by the documents collected:</Text>
      <List size="sm">
        {check.documents.map((d) => (
          <List.Item key={d.id}>
            {d.name} (Group {d.group})
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

/**
 * Verification and countersigning of a DBS application (operations, or customer staff with the
 * right: verifying and countersigning are separate rights): 'Verify identity' while awaiting
 * verification, against the evidence shown (the button is off until it meets a route), with the
 * discrepancies found (optional), and 'Countersign' once verified.
 */
export function VerificationActions({
  caseId,
  details,
  family,
  canVerify = false,
  canCountersign = false,
}: {
  caseId: number;
  details: DbsDetails;
  family: Exclude<ApiFamily, 'subject'>;
  canVerify?: boolean;
  canCountersign?: boolean;
}) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [notes, setNotes] = useState(details.discrepancy_notes ?? '');
  const [notesError, setNotesError] = useState<string | null>(null);
  const action =
    details.state === 'pending' && canVerify
      ? 'verify'
      : details.state === 'verified' && canCountersign
        ? 'countersign'
        : null;
  if (!action) return null;
  const check = details.identity_check;
  const unmet = action === 'verify' && check !== undefined && !check.met;
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
    <Button h={44} onClick={run} loading={busy} disabled={unmet} data-testid={`dbs-${action}`}>
      {action === 'verify' ? 'Verify identity' : 'Countersign'}
    </Button>
  );
  if (action === 'countersign') return <Group>{button}</Group>;
  return (
    <Stack gap="xs" w="100%" maw={560} data-testid="dbs-verify-step">
      {check && <IdentityEvidence check={check} />}
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
