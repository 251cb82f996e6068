import {
  CUSTOMER_PAYMENT_KIND_LABELS,
  CUSTOMER_PAYMENT_STATE_LABELS,
  type CustomerPaymentOut,
  formatDate,
  OPS_PAYMENT_STATES,
  PAYMENT_SOURCES,
} from '@kestrel/domain';
import {
  Anchor,
  Button,
  Paper,
  ScrollArea,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import type { QueryParams } from '../../../api/query-string';
import { useRememberListSearch } from '../../../components/back-to-list';
import { countLabel, pageCount } from '../../../components/count-label';
import { DateSelector } from '../../../components/date-selector';
import { Icon } from '../../../components/icons';
import { ListPagination, ListState, listStateOf } from '../../../components/list-states';
import classes from '../../../components/list-table.module.css';
import { href } from '../../../config/paths';
import { customerPayments } from '../api';
import { PaymentStateBadge } from '../components/payment-state-badge';
import own from './payments.module.css';

const PAGE_SIZE = 25;
const FILTERS = ['search', 'kind', 'status', 'created_after', 'created_before'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;
const today = () => new Date().toISOString().slice(0, 10);

function readFilters(p: URLSearchParams): Filters {
  return {
    search: p.get('search') ?? '',
    kind: p.get('kind') ?? '',
    status: p.get('status') ?? '',
    created_after: p.get('created_after') ?? '',
    created_before: p.get('created_before') ?? '',
  };
}

const apiParams = (f: Filters): QueryParams =>
  Object.fromEntries(FILTERS.map((k) => [k, f[k] || undefined]));

/** What a row paid for: the check (a subject's payment) or the description. */
const paidFor = (p: CustomerPaymentOut) =>
  p.check_name ? `${p.description}: ${p.check_name}` : p.description;

/** /payments: every payment of the organisation, filters in the URL, newest first. */
export default function Payments() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  useRememberListSearch(href('payments'), location.search);
  const filters = readFilters(params);
  const page = Number(params.get('page') ?? '1') || 1;
  const query = customerPayments.useList({ ...apiParams(filters), page, page_size: PAGE_SIZE });
  const data = query.data;
  const [search, setSearch] = useState(filters.search);

  // The filters as last asked for: a second change made before the URL shows the first builds
  // on the first (a typed search arriving after a filter was chosen).
  const asked = useRef({ search: location.search, filters });
  if (asked.current.search !== location.search)
    asked.current = { search: location.search, filters };
  const update = (patch: Partial<Filters>) => {
    const next = { ...asked.current.filters, ...patch };
    asked.current = { search: location.search, filters: next };
    const sp = new URLSearchParams();
    for (const k of FILTERS) if (next[k]) sp.set(k, next[k]);
    setParams(sp, { replace: true });
  };
  const pushSearch = useDebouncedCallback((v: string) => update({ search: v.trim() }), 300);
  const setPage = (n: number) => {
    const sp = new URLSearchParams(params);
    sp.set('page', String(n));
    setParams(sp, { replace: true });
  };
  const filtered = FILTERS.some((k) => filters[k] !== '');
  const state = listStateOf(query, filtered);

  return (
    <Stack gap="lg">
      <Title order={1}>Payments</Title>
      <Paper withBorder radius="lg" data-testid="payment-list">
        <Stack
          p="md"
          gap="sm"
          style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
        >
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
            <TextInput
              label="Search"
              placeholder="Case, subject or reference"
              leftSection={<Icon name="search" size={16} />}
              value={search}
              onChange={(e) => {
                setSearch(e.currentTarget.value);
                pushSearch(e.currentTarget.value);
              }}
            />
            <Select
              label="Kind"
              placeholder="Any kind"
              data={PAYMENT_SOURCES.map((k) => ({
                value: k,
                label: CUSTOMER_PAYMENT_KIND_LABELS[k],
              }))}
              value={filters.kind || null}
              onChange={(v) => update({ kind: v ?? '' })}
              clearable
            />
            <Select
              label="Status"
              placeholder="Any status"
              data={OPS_PAYMENT_STATES.map((s) => ({
                value: s,
                label: CUSTOMER_PAYMENT_STATE_LABELS[s],
              }))}
              value={filters.status || null}
              onChange={(v) => update({ status: v ?? '' })}
              clearable
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <DateSelector
              label="Paid on or after"
              required={false}
              value={filters.created_after || null}
              max={today()}
              onChange={(v) => update({ created_after: v ?? '' })}
            />
            <DateSelector
              label="Paid on or before"
              required={false}
              value={filters.created_before || null}
              max={today()}
              onChange={(v) => update({ created_before: v ?? '' })}
            />
          </SimpleGrid>
          {filtered && (
            <Button
              variant="subtle"
              style={{ alignSelf: 'flex-start' }}
              onClick={() => {
                setSearch('');
                setParams(new URLSearchParams(), { replace: true });
              }}
            >
              Clear filters
            </Button>
          )}
        </Stack>
        <ScrollArea viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Payments' }}>
          <Table
            verticalSpacing="sm"
            horizontalSpacing="md"
            highlightOnHover
            className={classes.table}
            style={{ '--list-min-width': '960px' }}
          >
            <Table.Caption className={own.caption}>Payments, newest first</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Reference</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>For</Table.Th>
                <Table.Th>Case</Table.Th>
                <Table.Th>Subject</Table.Th>
                <Table.Th>Amount</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Date</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.isPending
                ? [0, 1, 2].map((i) => (
                    <Table.Tr key={i}>
                      {[0, 1, 2, 3, 4, 5, 6, 7].map((j) => (
                        <Table.Td key={j}>
                          <Skeleton h={14} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))
                : data?.results.map((p) => (
                    <Table.Tr key={p.id}>
                      <Table.Td data-label="Reference" style={{ overflowWrap: 'anywhere' }}>
                        <Anchor component={Link} to={href('payment', { id: p.id })} fw={600}>
                          {p.reference}
                        </Anchor>
                      </Table.Td>
                      <Table.Td data-label="Kind">{CUSTOMER_PAYMENT_KIND_LABELS[p.kind]}</Table.Td>
                      <Table.Td data-label="For">{paidFor(p)}</Table.Td>
                      <Table.Td data-label="Case">
                        {p.case === null ? (
                          '—'
                        ) : (
                          <Anchor component={Link} to={href('case-detail', { id: p.case })}>
                            #{p.case}
                          </Anchor>
                        )}
                      </Table.Td>
                      <Table.Td data-label="Subject">{p.subject_name ?? '—'}</Table.Td>
                      <Table.Td data-label="Amount" style={{ whiteSpace: 'nowrap' }}>
                        {p.amount_display}
                        {p.refunded_pence > 0 && (
                          <Text size="xs" c="dimmed">
                            {p.refunded_display} refunded
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td data-label="Status">
                        <PaymentStateBadge state={p.state} />
                      </Table.Td>
                      <Table.Td data-label="Date" style={{ whiteSpace: 'nowrap' }}>
                        {formatDate(p.created_at)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
        {state && (
          <ListState
            kind={state}
            plural="payments"
            empty={{
              title: 'No payments yet',
              text: 'Payments for your checks and those your subjects make appear here.',
            }}
            onRetry={() => void query.refetch()}
            onClear={() => {
              setSearch('');
              setParams(new URLSearchParams(), { replace: true });
            }}
          />
        )}
        <SimpleGrid
          cols={{ base: 1, sm: 2 }}
          p="md"
          style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
        >
          <Text size="sm" c="dimmed">
            {data?.failed ? 'Not loaded' : countLabel(data, 'payment', 'payments')}
          </Text>
          <ListPagination
            total={pageCount(data, PAGE_SIZE)}
            value={page}
            onChange={setPage}
            label="Pages of payments"
          />
        </SimpleGrid>
      </Paper>
    </Stack>
  );
}
