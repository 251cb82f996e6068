import { CASE_ACTIVITY_STATE_LABELS } from '@kestrel/domain';
import {
  Anchor,
  Badge,
  Group,
  Paper,
  ScrollArea,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { type Activity, opsOutstandingActivities } from '../../../api/activities';
import { customerChoices } from '../../../api/customers';
import { ListPagination, ListState, listStateOf } from '../../../components/list-states';
import classes from '../../../components/list-table.module.css';
import { activityColumns } from '../components/activity-columns';
import {
  AGE_CHOICES,
  ASSIGNEE_OPTIONS,
  ageChoiceOf,
  assignedTo,
  KIND_OPTIONS,
  queueFiltersOf,
  queueUrl,
  withAge,
} from '../components/ops-queue';

/**
 * The states in which a check waits for operations (the server's OPS_OUTSTANDING_STATES), and
 * 'ca-awaiting-agent' for the standard and enhanced checks waiting for a countersignature.
 */
const OPS_STATES = ['ca-awaiting-ops', 'ca-error-initiating', 'ca-awaiting-agent'] as const;
const PAGE_SIZE = 25;

/**
 * Operations' work queue: checks of every customer waiting for ops staff, oldest first, with who
 * holds each (issue 29). The filters live in the URL, so the dashboard links to any slice of it
 * and the detail's "Save and next" walks the same list.
 */
export default function OpsOutstandingList() {
  const [search, setSearch] = useSearchParams();
  const filters = queueFiltersOf(search);
  const page = Math.max(1, Number(search.get('page') ?? '1') || 1);
  const customers = useQuery({ ...customerChoices(), select: (p) => p.results });
  const query = opsOutstandingActivities.useList({ ...filters, page, page_size: PAGE_SIZE });
  const data = query.data;
  const pages = Math.max(1, Math.ceil((data?.count ?? 0) / PAGE_SIZE));
  const set = (next: Record<string, string>, nextPage = 1) =>
    setSearch(
      {
        ...Object.fromEntries(Object.entries(next).filter(([, v]) => v)),
        ...(nextPage > 1 ? { page: String(nextPage) } : {}),
      },
      { replace: true },
    );
  const change = (name: string) => (value: string | null) =>
    set({ ...filters, [name]: value ?? '' });
  const age = ageChoiceOf(filters);
  const ageOptions =
    age && !AGE_CHOICES.some((c) => c.value === age.value) ? [...AGE_CHOICES, age] : AGE_CHOICES;
  const selects = [
    {
      name: 'customer',
      label: 'Customer',
      options: (customers.data ?? []).map((c) => ({ value: String(c.id), label: c.name })),
    },
    { name: 'activity_type', label: 'Kind of check', options: KIND_OPTIONS },
    {
      name: 'state',
      label: 'State',
      options: OPS_STATES.map((s) => ({ value: s, label: CASE_ACTIVITY_STATE_LABELS[s] })),
    },
    { name: 'assignee', label: 'Assignee', options: ASSIGNEE_OPTIONS },
  ];
  const state = listStateOf(query, Object.keys(filters).length > 0);
  const columns = [
    { key: 'customer', header: 'Customer', render: (a: Activity) => a.customer_name },
    ...activityColumns('Waiting since', false),
    {
      key: 'assignee',
      header: 'Assigned to',
      render: (a: Activity) =>
        a.claim ? (
          <Badge variant="light" color="blue" style={{ textTransform: 'none' }}>
            {assignedTo(a)}
          </Badge>
        ) : (
          <Text size="sm" c="dimmed">
            Unassigned
          </Text>
        ),
    },
  ];
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Outstanding activities</Title>
        <Text c="dimmed">Checks of every customer waiting for operations, oldest first.</Text>
      </Stack>
      <Paper withBorder radius="lg" data-testid="resource-table">
        <Group
          p="md"
          gap="sm"
          style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
        >
          {selects.map((f) => (
            <Select
              key={f.name}
              aria-label={f.label}
              placeholder={f.label}
              data={f.options}
              clearable
              size="sm"
              value={filters[f.name] ?? null}
              onChange={change(f.name)}
            />
          ))}
          <Select
            aria-label="Age"
            placeholder="Age"
            data={ageOptions.map((c) => ({ value: c.value, label: c.label }))}
            clearable
            size="sm"
            value={age?.value ?? null}
            onChange={(v) => set(withAge(filters, v))}
          />
        </Group>
        <ScrollArea
          viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Outstanding activities' }}
        >
          <Table
            verticalSpacing="sm"
            horizontalSpacing="md"
            highlightOnHover
            className={classes.table}
          >
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c.key}>{c.header}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.isPending
                ? [0, 1, 2].map((i) => (
                    <Table.Tr key={i}>
                      {columns.map((c) => (
                        <Table.Td key={c.key}>
                          <Skeleton h={14} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))
                : data?.results.map((row) => (
                    <Table.Tr key={row.id} data-testid={`queue-row-${row.id}`}>
                      {columns.map((c, i) => (
                        <Table.Td key={c.key} data-label={c.header}>
                          {i === 0 ? (
                            <Anchor component={Link} to={queueUrl(filters, row.id)} fw={600}>
                              {c.render(row)}
                            </Anchor>
                          ) : (
                            c.render(row)
                          )}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
        {state && (
          <ListState
            kind={state}
            plural="outstanding activities"
            onRetry={() => void query.refetch()}
            onClear={() => set({})}
          />
        )}
        {data && data.count > 0 && (
          <Group justify="space-between" p="md">
            <Text size="sm" c="dimmed">
              {data.count} waiting
            </Text>
            <ListPagination
              total={pages}
              value={page}
              onChange={(p) => set(filters, p)}
              label="outstanding activities"
            />
          </Group>
        )}
      </Paper>
    </Stack>
  );
}
