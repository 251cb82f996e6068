import { Button, Group } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { notify } from '../../lib/notify';
import { type ApiFamily, type DbsDetails, dbsDetailsAction } from './results-api';

/**
 * Verification and countersigning of a DBS application (customer staff with the right or
 * operations): 'Verify identity' while awaiting verification, 'Countersign' once verified.
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
  const action =
    details.state === 'pending' ? 'verify' : details.state === 'verified' ? 'countersign' : null;
  if (!action) return null;
  const run = async () => {
    setBusy(true);
    const r = await dbsDetailsAction(family, caseId, action);
    setBusy(false);
    if (r.ok) {
      notify.success('Successfully updated DBS details');
      await client.invalidateQueries();
    } else {
      notify.error('Error updating DBS details');
    }
  };
  return (
    <Group>
      <Button h={44} onClick={run} loading={busy} data-testid={`dbs-${action}`}>
        {action === 'verify' ? 'Verify identity' : 'Countersign'}
      </Button>
    </Group>
  );
}
