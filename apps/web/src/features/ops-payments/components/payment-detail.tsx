import { formatPence, type OpsPaymentDetailOut, type PaymentSource } from '@kestrel/domain';
import {
  Alert,
  Anchor,
  Button,
  Group,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { RefundsTable } from '../../../components/refunds-table';
import { href } from '../../../config/paths';
import { formatDateTime } from '../../../lib/date-time';
import { PaymentStateBadge } from '../../payments';
import { opsPayments, refundStatusText, useRefund } from '../api';

const newRequestId = () => crypto.randomUUID();

/** Refund all that is left or part of it (in pounds), once per request id. */
function RefundForm({ source, payment }: { source: PaymentSource; payment: OpsPaymentDetailOut }) {
  const refund = useRefund(source, payment.id);
  const [pounds, setPounds] = useState<string | number>('');
  const [requestId, setRequestId] = useState(newRequestId);
  const [error, setError] = useState<string | null>(null);
  const left = payment.refundable_pence;
  if (left <= 0) return null;
  const submit = (whole: boolean) => {
    setError(null);
    const amountPence = whole ? undefined : Math.round(Number(pounds) * 100);
    if (!whole && (!amountPence || amountPence <= 0)) {
      setError('Enter the amount to refund.');
      return;
    }
    refund.mutate(
      { amountPence, requestId },
      {
        onSuccess: () => {
          setPounds('');
          setRequestId(newRequestId());
        },
        onError: (e) => setError(e.message),
      },
    );
  };
  return (
    <Paper withBorder radius="lg" p="md">
      <Title order={2} size="h4" mb="xs">
        Refund
      </Title>
      <Text size="sm" mb="sm">
        Up to {formatPence(left)} can be refunded through the payments provider.
      </Text>
      <Group align="flex-end">
        <NumberInput
          label="Amount (£)"
          min={0}
          clampBehavior="none"
          decimalScale={2}
          fixedDecimalScale
          value={pounds}
          onChange={setPounds}
          error={error}
          w={200}
        />
        <Button onClick={() => submit(false)} loading={refund.isPending}>
          Refund amount
        </Button>
        <Button variant="outline" onClick={() => submit(true)} loading={refund.isPending}>
          Refund all ({formatPence(left)})
        </Button>
      </Group>
    </Paper>
  );
}

/** One payment: what it paid for, the provider's events, its refunds and the refund form. */
export function PaymentDetail({ source }: { source: PaymentSource }) {
  const { id = '' } = useParams();
  const resource = opsPayments[source];
  const q = useQuery(resource.itemOptions(id));
  const listName = source === 'portal' ? 'ops:portal-payments' : 'ops:product-payments';
  const back = (
    <Anchor component={Link} to={href(listName)}>
      ← All {source === 'portal' ? 'portal' : 'product'} payments
    </Anchor>
  );
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
      <Group justify="space-between">
        {/* a provider's reference is one long word: it breaks rather than widen a phone's page */}
        <Title order={1} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
          Payment {p.reference}
        </Title>
        <PaymentStateBadge state={p.state} />
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder radius="lg" p="md">
          <Title order={2} size="h4" mb="xs">
            Details
          </Title>
          <Text size="sm">Customer: {p.customer_name}</Text>
          <Text size="sm">
            For: {p.check_name ? `${p.description}: ${p.check_name}` : p.description}
          </Text>
          <Text size="sm">Amount: {p.amount_display}</Text>
          <Text size="sm">Refunded: {p.refunded_display}</Text>
          <Text size="sm">Date: {formatDateTime(p.created_at)}</Text>
          <Text size="sm">
            Provider: {p.provider}
            {p.provider_payment_id && ` · ${p.provider_payment_id}`}
          </Text>
          {p.case !== null && <Text size="sm">Case: {p.case}</Text>}
          {p.case_activity !== null && (
            <Text size="sm">
              Paid for:{' '}
              <Anchor
                component={Link}
                to={href('ops:outstanding-activity', { id: p.case_activity })}
              >
                activity {p.case_activity}
              </Anchor>
            </Text>
          )}
        </Paper>
        <RefundForm source={source} payment={p} />
      </SimpleGrid>
      <Paper withBorder radius="lg" p="md">
        <Title order={2} size="h4" mb="xs">
          Provider events
        </Title>
        {p.events.length === 0 ? (
          <Text size="sm">The provider has reported nothing yet.</Text>
        ) : (
          // a provider's event names and messages are long words ('payment_intent.payment_failed'):
          // they break anywhere so the table fits a 360 px phone
          <Table style={{ overflowWrap: 'anywhere' }}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Event</Table.Th>
                <Table.Th>Amount</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>When</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {p.events.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>
                    {e.type}
                    {e.message && ` (${e.message})`}
                  </Table.Td>
                  <Table.Td>{e.amount_display}</Table.Td>
                  <Table.Td>{e.status}</Table.Td>
                  <Table.Td>{formatDateTime(e.at)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
      <Paper withBorder radius="lg" p="md">
        <Title order={2} size="h4" mb="xs">
          Refunds
        </Title>
        <RefundsTable refunds={p.refunds} withBy statusOf={refundStatusText} />
      </Paper>
    </Stack>
  );
}
