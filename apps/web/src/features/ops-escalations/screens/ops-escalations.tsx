import { ESCALATION_STATUSES, type EscalationStatus, formatDate } from '@kestrel/domain';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  ScrollArea,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { customerChoices } from '../../../api/customers';
import { ListPagination } from '../../../components/list-states';
import { href } from '../../../config/paths';
import { ESCALATIONS_PAGE_SIZE, ESCALATIONS_PATH, escalationsOptions } from '../api';

const STATUSES: { value: EscalationStatus; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'all', label: 'All' },
];

const isStatus = (v: string | null): v is EscalationStatus =>
  ESCALATION_STATUSES.some((s) => s === v);

const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

/**
 * Operations' escalated checks (issue 33): each check past its expected completion date, which
 * the hourly checks-overdue job escalated; open ones first, by customer, each linking to the
 * check's page in the outstanding list and to its case (which offers ops the customer's workspace).
 */
export default function OpsEscalations() {
  const [search, setSearch] = useSearchParams();
  const raw = search.get('status');
  const status: EscalationStatus = isStatus(raw) ? raw : 'open';
  const customer = search.get('customer') ?? '';
  const page = Math.max(1, Number(search.get('page') ?? '1') || 1);
  const client = useQueryClient();
  const query = useQuery(escalationsOptions({ status, customer, page }));
  const customers = useQuery({ ...customerChoices(), select: (p) => p.results });
  const data = query.data;
  const pages = data ? Math.max(1, Math.ceil(data.count / ESCALATIONS_PAGE_SIZE)) : 1;
  const go = (next: { status?: string; customer?: string; page?: number }) => {
    const params = new URLSearchParams(search);
    for (const key of ['status', 'customer'] as const) {
      const value = next[key];
      if (value === undefined) continue;
      if (value) params.set(key, value);
      else params.delete(key);
      params.delete('page');
    }
    if (next.page !== undefined) params.set('page', String(next.page));
    setSearch(params);
  };
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4}>
          <Title order={1}>Escalations</Title>
          <Text c="dimmed">
            Checks past their expected completion date. The customer sees a flag on the case until
            the check is done.
          </Text>
        </Stack>
        <Button
          variant="default"
          size="sm"
          onClick={() => client.invalidateQueries({ queryKey: [ESCALATIONS_PATH] })}
          loading={query.isFetching}
        >
          Refresh
        </Button>
      </Group>
      <Group gap="sm" align="flex-end">
        <SegmentedControl
          value={status}
          onChange={(v) => go({ status: v === 'open' ? '' : v })}
          data={STATUSES}
          aria-label="Escalation status"
        />
        <Select
          label="Customer"
          placeholder="Every customer"
          data={(customers.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
          value={customer || null}
          onChange={(v) => go({ customer: v ?? '' })}
          clearable
          searchable
          w={{ base: '100%', xs: 260 }}
        />
      </Group>
      {query.isPending ? (
        <Skeleton h={240} radius="lg" />
      ) : !data ? (
        <Text c="red.8">The escalations could not be loaded.</Text>
      ) : data.count === 0 ? (
        <Paper withBorder radius="lg" p="xl" data-testid="escalations-empty">
          <Text ta="center" fw={600}>
            {status === 'resolved' ? 'No resolved escalations' : 'No open escalations'}
          </Text>
          <Text ta="center" c="dimmed" size="sm" mt={4}>
            A check is escalated here the day after its expected completion date.
          </Text>
        </Paper>
      ) : (
        <Paper withBorder radius="lg">
          <ScrollArea viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Escalations' }}>
            <Table verticalSpacing="sm" miw={820} data-testid="escalations-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Check</Table.Th>
                  <Table.Th>Customer</Table.Th>
                  <Table.Th>Subject</Table.Th>
                  <Table.Th>Case</Table.Th>
                  <Table.Th>Expected</Table.Th>
                  <Table.Th>Overdue</Table.Th>
                  <Table.Th>Status</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.results.map((e) => (
                  <Table.Tr key={e.id} data-testid={`escalation-${e.id}`}>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={href('ops:outstanding-activity', { id: e.activity_id })}
                        fw={600}
                        size="sm"
                      >
                        {e.check}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{e.customer_name}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{e.subject_name || '—'}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={href('case-detail', { id: e.case_id })}
                        size="sm"
                        aria-label={`Case ${e.case_id} of ${e.customer_name}`}
                      >
                        #{e.case_id}
                      </Anchor>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Text size="sm">{formatDate(e.expected_on)}</Text>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Text
                        size="sm"
                        fw={e.resolved_at ? undefined : 700}
                        c={e.resolved_at ? undefined : 'var(--mantine-color-red-text)'}
                      >
                        {days(e.days_overdue)}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {e.resolved_at ? (
                        <Badge size="sm" variant="light" color="green">
                          Resolved {formatDate(e.resolved_at)}
                        </Badge>
                      ) : (
                        <Badge size="sm" variant="light" color="red">
                          Open
                        </Badge>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </Paper>
      )}
      <ListPagination
        total={pages}
        value={page}
        onChange={(p) => go({ page: p })}
        label="Pages of escalations"
      />
    </Stack>
  );
}
