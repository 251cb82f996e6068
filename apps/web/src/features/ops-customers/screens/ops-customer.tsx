import {
  type AuditActionOut,
  CASE_STATE_LABELS,
  CASE_STATES,
  type CaseListItemOut,
  type CustomerOut,
  formatDate,
  formatPhone,
} from '@kestrel/domain';
import { Anchor, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { request } from '../../../api/client';
import classes from '../../../components/list-table.module.css';
import { href } from '../../../config/paths';
import { BRAND_NAMES, customerUsersOptions } from '../api';
import { CustomerFrame } from '../components/customer-frame';

interface Page<T> {
  count: number;
  results: T[];
}

const latest = <T,>(path: string, customer: number) => ({
  queryKey: ['ops-customers', customer, path],
  queryFn: async () => {
    const r = await request<Page<T>>('GET', path, {
      params: { customer, page_size: 8, ordering: '-created_at' },
    });
    return r.ok ? r.data : { count: 0, results: [] };
  },
});

function Overview({ customer }: { customer: CustomerOut }) {
  const cases = useQuery(latest<CaseListItemOut>('/api/ops/cases/', customer.id));
  const activity = useQuery(latest<AuditActionOut>('/api/ops/audit-actions/', customer.id));
  const users = useQuery(customerUsersOptions(customer.id));
  const active = (users.data?.results ?? []).filter((u) => u.is_active).length;
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Paper withBorder radius="lg" p="md">
          <Title order={2} size="h4" mb="xs">
            Details
          </Title>
          <Text size="sm">Brand: {BRAND_NAMES[customer.brand]}</Text>
          <Text size="sm">Added {formatDate(customer.created_at)}</Text>
          <Text size="sm">
            Contact: {customer.contact_name || 'not given'}
            {customer.contact_email && ` · ${customer.contact_email}`}
            {customer.contact_phone && ` · ${formatPhone(customer.contact_phone)}`}
          </Text>
          <Text size="sm">Checks it may order: {customer.activity_types.length}</Text>
        </Paper>
        <Paper withBorder radius="lg" p="md">
          <Title order={2} size="h4" mb="xs">
            Cases ({customer.case_count})
          </Title>
          {CASE_STATES.filter((s) => customer.cases_by_state[s]).map((s) => (
            <Text size="sm" key={s}>
              {CASE_STATE_LABELS[s]}: {customer.cases_by_state[s]}
            </Text>
          ))}
          {customer.case_count === 0 && <Text size="sm">No cases yet.</Text>}
        </Paper>
        <Paper withBorder radius="lg" p="md">
          <Title order={2} size="h4" mb="xs">
            Users ({customer.user_count})
          </Title>
          <Text size="sm">{active} active</Text>
          <Anchor component={Link} to={href('ops:customer-users', { id: customer.id })} size="sm">
            Manage users
          </Anchor>
        </Paper>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder radius="lg" p="md">
          <Title order={2} size="h4" mb="xs">
            Recent cases
          </Title>
          <Table
            aria-label="Recent cases"
            className={classes.table}
            style={{ '--list-min-width': '0px' }}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Subject</Table.Th>
                <Table.Th>Process</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(cases.data?.results ?? []).map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td data-label="Subject">
                    {c.subject.first_name} {c.subject.last_name}
                  </Table.Td>
                  <Table.Td data-label="Process">{c.process.name}</Table.Td>
                  <Table.Td data-label="State">{c.state_display}</Table.Td>
                  <Table.Td data-label="Created">{formatDate(c.created_at)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {cases.data?.count === 0 && <Text size="sm">No cases yet.</Text>}
        </Paper>
        <Paper withBorder radius="lg" p="md">
          <Title order={2} size="h4" mb="xs">
            Recent activity
          </Title>
          <Stack gap={6}>
            {(activity.data?.results ?? []).map((a) => (
              <Text size="sm" key={a.id}>
                {formatDate(a.created_at)} · {a.actor_name || 'System'} ·{' '}
                {a.verb.replaceAll('_', ' ')} {a.object_repr}
              </Text>
            ))}
            {activity.data?.count === 0 && <Text size="sm">Nothing recorded yet.</Text>}
          </Stack>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}

/** A customer at a glance: details, cases by state, users, recent cases and activity. */
export default function OpsCustomer() {
  return <CustomerFrame>{(c) => <Overview customer={c} />}</CustomerFrame>;
}
