import { type CustomerOut, ENTITLEMENTS, type Entitlement } from '@kestrel/domain';
import { Paper, Stack, Switch, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { request } from '../../../api/client';
import { notify } from '../../../lib/notify';
import { ENTITLEMENT_NAMES, opsCustomers } from '../api';
import { CustomerFrame } from '../components/customer-frame';

function Entitlements({ customer }: { customer: CustomerOut }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState<Entitlement | null>(null);
  const toggle = async (e: Entitlement, on: boolean) => {
    setBusy(e);
    const list = on ? [...customer.entitlements, e] : customer.entitlements.filter((x) => x !== e);
    const r = await request<CustomerOut>('PATCH', `${opsCustomers.path}${customer.id}/`, {
      body: { entitlements: list },
    });
    if (r.ok) {
      notify.success(`${ENTITLEMENT_NAMES[e]} ${on ? 'switched on' : 'switched off'}`);
      await client.invalidateQueries({ queryKey: opsCustomers.key });
    } else {
      notify.error('Error updating customer');
    }
    setBusy(null);
  };
  return (
    <Paper withBorder radius="lg" p="xl" maw={700}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          A change applies to the customer's people on their next request, and is recorded in the
          audit log.
        </Text>
        {ENTITLEMENTS.map((e) => (
          <Switch
            key={e}
            label={ENTITLEMENT_NAMES[e]}
            description={e}
            checked={customer.entitlements.includes(e)}
            disabled={busy !== null}
            onChange={(ev) => void toggle(e, ev.currentTarget.checked)}
            data-testid={`entitlement-${e}`}
          />
        ))}
      </Stack>
    </Paper>
  );
}

/** regportals, cycles and subject_dedup switched on and off. */
export default function OpsCustomerEntitlements() {
  return <CustomerFrame>{(c) => <Entitlements customer={c} />}</CustomerFrame>;
}
