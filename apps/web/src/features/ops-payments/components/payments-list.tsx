import {
  formatDate,
  type OpsPaymentRecordOut,
  type PaymentSource,
  REFUND_UNANSWERED_HOURS,
} from '@kestrel/domain';
import { Checkbox, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { customerChoices } from '../../../api/customers';
import { ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { PaymentStateBadge } from '../../payments';
import { opsPayments } from '../api';

const STATUS_OPTIONS: Record<PaymentSource, { value: string; label: string }[]> = {
  portal: [
    { value: 'paid', label: 'Paid' },
    { value: 'awaiting', label: 'Awaiting payment' },
    { value: 'declined', label: 'Declined' },
  ],
  product: [
    { value: 'succeeded', label: 'Paid' },
    { value: 'processing', label: 'Processing' },
    { value: 'failed', label: 'Failed' },
  ],
};

/** Every customer's payments of one source: status, customer and date filters, search. */
export function PaymentsList({ source, title }: { source: PaymentSource; title: string }) {
  const customers = useQuery({ ...customerChoices(), select: (p) => p.results });
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [customer, setCustomer] = useState<string | null>(null);
  // the ops dashboard's alert links here with ?refund=unanswered
  const [searchParams] = useSearchParams();
  const [unanswered, setUnanswered] = useState(searchParams.get('refund') === 'unanswered');
  const params = {
    ordering: '-created_at',
    ...(unanswered ? { refund: 'unanswered' } : {}),
    ...(from ? { created_after: from } : {}),
    ...(to ? { created_before: to } : {}),
    ...(customer ? { customer } : {}),
  };
  return (
    <Stack gap="lg">
      <Title order={1}>{title}</Title>
      <Group gap="md" align="flex-end">
        <Select
          label="Customer"
          placeholder="All customers"
          clearable
          searchable
          data={(customers.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
          value={customer}
          onChange={setCustomer}
          w={240}
        />
        <TextInput
          type="date"
          label="From"
          value={from}
          onChange={(e) => setFrom(e.currentTarget.value)}
        />
        <TextInput
          type="date"
          label="To"
          value={to}
          onChange={(e) => setTo(e.currentTarget.value)}
        />
        <Checkbox
          label={`Refunds unanswered for over ${REFUND_UNANSWERED_HOURS} hour`}
          checked={unanswered}
          onChange={(e) => setUnanswered(e.currentTarget.checked)}
          mb={8}
        />
      </Group>
      <ResourceTable<OpsPaymentRecordOut>
        resource={opsPayments[source]}
        params={params}
        caption={title}
        searchable
        rowHref={(p) =>
          source === 'portal'
            ? href('ops:portal-payment', { id: p.id })
            : href('ops:product-payment', { id: p.id })
        }
        filters={[{ name: 'status', label: 'Status', options: STATUS_OPTIONS[source] }]}
        empty={{ title: 'No payments', text: 'No payment matches these filters.' }}
        columns={[
          { key: 'reference', header: 'Reference', render: (p) => p.reference },
          { key: 'customer', header: 'Customer', render: (p) => p.customer_name },
          { key: 'description', header: 'For', render: (p) => p.description },
          { key: 'amount', header: 'Amount', render: (p) => p.amount_display },
          {
            key: 'refunded',
            header: 'Refunded',
            render: (p) => (p.refunded_pence > 0 ? p.refunded_display : '—'),
          },
          { key: 'state', header: 'Status', render: (p) => <PaymentStateBadge state={p.state} /> },
          {
            key: 'created',
            header: 'Date',
            ordering: 'created_at',
            render: (p) => formatDate(p.created_at),
          },
        ]}
      />
    </Stack>
  );
}
