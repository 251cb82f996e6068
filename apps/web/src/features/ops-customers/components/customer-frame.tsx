import type { CustomerOut } from '@kestrel/domain';
import { Badge, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { SectionTabs } from '../../../components/section-tabs';
import { href } from '../../../config/paths';
import { notify } from '../../../lib/notify';
import { endOpsSession, startOpsSession } from '../../../lib/session/session-actions';
import { useSession } from '../../../lib/session/session-store';
import { opsCustomers } from '../api';

/** The customer's id from the route (`/ops/customers/:id/...`). */
export function useCustomerId(): number {
  const { id = '' } = useParams();
  return Number(id);
}

/**
 * Start or end an ops session into this customer, then re-bootstrap the app as the header's
 * customer picker does (the same session actions; starting lands on the customer's dashboard).
 */
function OpsSessionButton({ customer }: { customer: CustomerOut }) {
  const navigate = useNavigate();
  const location = useLocation();
  const { sessionCustomer } = useSession();
  const [busy, setBusy] = useState(false);
  const inThis = sessionCustomer === customer.id;
  const run = async () => {
    setBusy(true);
    const ok = inThis ? await endOpsSession() : await startOpsSession(customer.id);
    setBusy(false);
    if (!ok) {
      notify.error(inThis ? 'Error ending customer session' : 'Error starting customer session');
      return;
    }
    const next = inThis ? `${location.pathname}${location.search}` : href('dashboard');
    navigate(href('bootstrap', {}, { next }));
  };
  return (
    <Button
      variant={inThis ? 'default' : 'filled'}
      loading={busy}
      onClick={run}
      data-testid="ops-session-button"
    >
      {inThis ? 'End ops session' : 'Start ops session'}
    </Button>
  );
}

const TABS = [
  ['ops:customer', 'Overview'],
  ['ops:customer-edit', 'Edit'],
  ['ops:customer-entitlements', 'Entitlements'],
  ['ops:customer-segments', 'Segments'],
  ['ops:customer-users', 'Users'],
  ['ops:pricebooks', 'Pricebooks'],
] as const;

/** Every customer page: its name, state, the ops session button and the tabs. */
export function CustomerFrame({ children }: { children: (customer: CustomerOut) => ReactNode }) {
  const id = useCustomerId();
  const query = useQuery(opsCustomers.itemOptions(id));
  const customer = query.data;
  return (
    <Stack gap="lg">
      <Text size="sm">
        <Link to={href('ops:customers')}>← Customers</Link>
      </Text>
      {customer ? (
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap={4}>
            <Title order={1}>{customer.name}</Title>
            <Group gap="xs">
              {!customer.is_active && <Badge color="gray">Inactive</Badge>}
              {customer.demo_mode && <Badge color="yellow">Demo mode</Badge>}
            </Group>
          </Stack>
          <OpsSessionButton customer={customer} />
        </Group>
      ) : (
        <Skeleton h={40} w={300} />
      )}
      <SectionTabs
        label="Customer pages"
        tabs={TABS.map(([name, label]) => ({ to: href(name, { id }), label }))}
      />
      {customer ? children(customer) : query.isError ? <Text>Customer not found.</Text> : null}
    </Stack>
  );
}
