import { CUSTOMER_PAYMENT_KIND_LABELS, type CustomerPaymentDetailOut } from '@kestrel/domain';
import { Alert, Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { BackToList } from '../../../components/back-to-list';
import { Fact } from '../../../components/fact';
import { RefundsTable } from '../../../components/refunds-table';
import { href } from '../../../config/paths';
import { formatDateTime } from '../../../lib/date-time';
import { customerPayments } from '../api';
import { PaymentStateBadge } from '../components/payment-state-badge';

/** The provider's events in words. */
const EVENT_LABELS: Record<string, string> = {
  'payment_intent.succeeded': 'Payment taken',
  'payment_intent.payment_failed': 'Payment declined',
  'refund.succeeded': 'Refund made',
  'refund.failed': 'Refund failed',
};
const REFUND_LABELS = { pending: 'In progress', succeeded: 'Refunded', failed: 'Failed' } as const;

function Timeline({ p }: { p: CustomerPaymentDetailOut }) {
  if (p.events.length === 0) {
    return <Text size="sm">The payments provider has reported nothing on this payment yet.</Text>;
  }
  return (
    <Stack gap="sm" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {p.events.map((e) => (
        <li key={e.id}>
          <Text size="sm" fw={600}>
            {EVENT_LABELS[e.type] ?? e.type} · {e.amount_display}
          </Text>
          <Text size="sm" c="dimmed">
            {formatDateTime(e.at)}
            {e.message ? ` · ${e.message}` : ''}
          </Text>
          <Text size="xs" c="dimmed">
            {e.type} · {e.id}
          </Text>
        </li>
      ))}
    </Stack>
  );
}

/** /payments/{id}: what one payment paid for, the provider's events and its refunds. */
export default function Payment() {
  const { id = '' } = useParams();
  const q = useQuery(customerPayments.itemOptions(id));
  const back = <BackToList path={href('payments')} label="All payments" />;
  if (q.isError) {
    return (
      <Stack>
        {back}
        <Alert color="red" title="Payment not found">
          This payment does not exist or could not be read.
        </Alert>
      </Stack>
    );
  }
  const p = q.data;
  if (!p) return <Text>Loading…</Text>;
  return (
    <Stack gap="lg">
      {back}
      <Group justify="space-between" align="center">
        <Title order={1}>Payment {p.reference}</Title>
        <PaymentStateBadge state={p.state} />
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder radius="lg" p="md">
          <Title order={2} size="h4" mb="sm">
            What it paid for
          </Title>
          <Stack gap="xs">
            <Fact label="Kind">{CUSTOMER_PAYMENT_KIND_LABELS[p.kind]}</Fact>
            <Fact label="For">{p.description}</Fact>
            {p.check_name && <Fact label="Check">{p.check_name}</Fact>}
            <Fact label="Case">
              {p.case === null ? (
                'None'
              ) : (
                <Anchor component={Link} to={href('case-detail', { id: p.case })}>
                  Case #{p.case}
                </Anchor>
              )}
            </Fact>
            {p.subject_name && <Fact label="Subject">{p.subject_name}</Fact>}
          </Stack>
        </Paper>
        <Paper withBorder radius="lg" p="md">
          <Title order={2} size="h4" mb="sm">
            Amount
          </Title>
          <Stack gap="xs">
            <Fact label="Amount">
              <span data-testid="payment-amount">{p.amount_display}</span>
            </Fact>
            <Fact label="Refunded">{p.refunded_display}</Fact>
            <Fact label="Date">{formatDateTime(p.created_at)}</Fact>
            <Fact label="Provider reference">{p.provider_payment_id ?? 'None yet'}</Fact>
          </Stack>
        </Paper>
      </SimpleGrid>
      <Paper withBorder radius="lg" p="md">
        <Title order={2} size="h4" mb="sm">
          Provider events
        </Title>
        <Timeline p={p} />
      </Paper>
      <Paper withBorder radius="lg" p="md">
        <Title order={2} size="h4" mb="sm">
          Refunds
        </Title>
        <RefundsTable refunds={p.refunds} statusOf={(r) => REFUND_LABELS[r.status]} />
      </Paper>
    </Stack>
  );
}
