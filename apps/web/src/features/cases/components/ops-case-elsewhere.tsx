import { Button, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { opsCases } from '../../../api/cases';
import { opsCustomers } from '../../../api/customers';
import { href } from '../../../config/paths';
import { notify } from '../../../lib/notify';
import { startOpsSession } from '../../../lib/session/session-actions';

/**
 * A case operations staff opened by its address outside its customer (no ops session, or
 * another customer's): where the ops-only endpoint says it belongs, with the way into that
 * customer's workspace (an ops session) and back to the case; `notFound` when it is nowhere.
 */
export function OpsCaseElsewhere({ id, notFound }: { id: string; notFound: ReactNode }) {
  const navigate = useNavigate();
  const [opening, setOpening] = useState(false);
  const found = useQuery({ ...opsCases.itemOptions(id, { quiet: true }), retry: false });
  const customerId = found.data?.customer;
  const customer = useQuery({
    ...opsCustomers.itemOptions(customerId ?? 0, { quiet: true }),
    enabled: customerId !== undefined,
    retry: false,
  });
  if (found.isPending) return null;
  if (customerId === undefined) return notFound;
  // the customer's name, not its number, unless it cannot be read
  if (customer.isPending) return null;
  const name = customer.data?.name ?? `customer ${customerId}`;
  const open = async () => {
    setOpening(true);
    const ok = await startOpsSession(customerId);
    setOpening(false);
    if (ok) navigate(href('bootstrap', {}, { next: href('case-detail', { id }) }));
    else notify.error('Error starting customer session');
  };
  return (
    <Paper withBorder p="md" radius="md" maw={560} data-testid="ops-case-elsewhere">
      <Stack gap="sm" align="flex-start">
        <Text>
          Case #{id} belongs to {name}, not to the workspace you are in. Operations staff open it
          inside its customer's workspace.
        </Text>
        <Button h={44} onClick={open} loading={opening}>
          Open the case as {name}
        </Button>
      </Stack>
    </Paper>
  );
}
