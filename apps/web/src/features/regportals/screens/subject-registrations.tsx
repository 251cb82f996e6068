import { formatDate, REGISTRATION_STATE_LABELS, REGISTRATION_STATES } from '@kestrel/domain';
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
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { processes } from '../../../api/processes';
import type { QueryParams } from '../../../api/query-string';
import { useRememberListSearch } from '../../../components/back-to-list';
import { countLabel, pageCount } from '../../../components/count-label';
import { DateSelector } from '../../../components/date-selector';
import { Icon } from '../../../components/icons';
import { ListPagination, ListState, listStateOf } from '../../../components/list-states';
import classes from '../../../components/list-table.module.css';
import { href } from '../../../config/paths';
import { portalRegistrations, processRegPortals } from '../api';
import { RegistrationStateBadge } from '../components/registration-state-badge';

const PAGE_SIZE = 25;
/** The filters, as the URL and the API name them (contract: portalRegistrationListFilters). */
export const FILTERS = [
  'q',
  'state',
  'process',
  'reg_portal',
  'started_from',
  'started_to',
] as const;
type Filters = Record<(typeof FILTERS)[number], string>;
const today = () => new Date().toISOString().slice(0, 10);

function readFilters(p: URLSearchParams): Filters {
  return Object.fromEntries(FILTERS.map((k) => [k, p.get(k) ?? ''])) as Filters;
}
const apiParams = (f: Filters): QueryParams =>
  Object.fromEntries(FILTERS.map((k) => [k, f[k] || undefined]));

const STATE_OPTIONS = REGISTRATION_STATES.map((s) => ({
  value: s,
  label: REGISTRATION_STATE_LABELS[s],
}));

/** The portal choice: the chosen process's portals (a portal belongs to one process). */
function usePortalOptions(processId: string) {
  const resource = useMemo(() => processRegPortals(processId || 0), [processId]);
  const list = useQuery({ ...resource.listOptions({ page_size: 100 }), enabled: processId !== '' });
  return processId
    ? (list.data?.results ?? []).map((p) => ({ value: String(p.id), label: p.title }))
    : [];
}

/** /subjects/registrations: every registration through the portals, filters in the URL. */
export default function SubjectRegistrations() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  useRememberListSearch(href('subject-registrations'), location.search);
  const filters = readFilters(params);
  const page = Number(params.get('page') ?? '1') || 1;
  const query = portalRegistrations.useList({
    ...apiParams(filters),
    page,
    page_size: PAGE_SIZE,
  });
  const data = query.data;
  const [search, setSearch] = useState(filters.q);
  const processList = processes.useList({ page_size: 100 });
  const processOptions = (processList.data?.results ?? []).map((p) => ({
    value: String(p.id),
    label: p.name,
  }));
  const portalOptions = usePortalOptions(filters.process);

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
  const pushSearch = useDebouncedCallback((v: string) => update({ q: v.trim() }), 300);
  const setPage = (n: number) => {
    const sp = new URLSearchParams(params);
    sp.set('page', String(n));
    setParams(sp, { replace: true });
  };
  const clear = () => {
    setSearch('');
    setParams(new URLSearchParams(), { replace: true });
  };
  const filtered = FILTERS.some((k) => filters[k] !== '');
  const state = listStateOf(query, filtered);

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Registrations</Title>
        <Text size="sm" c="dimmed">
          People who registered themselves through your registration portals, newest first.
        </Text>
      </Stack>
      <Paper withBorder radius="lg" data-testid="registration-list">
        <Stack
          p="md"
          gap="sm"
          style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label="Search"
              placeholder="Name or email"
              leftSection={<Icon name="search" size={16} />}
              value={search}
              onChange={(e) => {
                setSearch(e.currentTarget.value);
                pushSearch(e.currentTarget.value);
              }}
            />
            <Select
              label="State"
              placeholder="Any state"
              data={STATE_OPTIONS}
              value={filters.state || null}
              onChange={(v) => update({ state: v ?? '' })}
              clearable
            />
            <Select
              label="Process"
              placeholder="Any process"
              data={processOptions}
              value={filters.process || null}
              onChange={(v) => update({ process: v ?? '', reg_portal: '' })}
              searchable
              clearable
            />
            <Select
              label="Portal"
              placeholder={filters.process ? 'Any portal' : 'Choose a process first'}
              data={portalOptions}
              value={filters.reg_portal || null}
              onChange={(v) => update({ reg_portal: v ?? '' })}
              disabled={!filters.process}
              clearable
            />
            <DateSelector
              label="Started on or after"
              required={false}
              value={filters.started_from || null}
              max={today()}
              onChange={(v) => update({ started_from: v ?? '' })}
            />
            <DateSelector
              label="Started on or before"
              required={false}
              value={filters.started_to || null}
              max={today()}
              onChange={(v) => update({ started_to: v ?? '' })}
            />
          </SimpleGrid>
          {filtered && (
            <Button variant="subtle" style={{ alignSelf: 'flex-start' }} onClick={clear}>
              Clear filters
            </Button>
          )}
        </Stack>
        <ScrollArea viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Registrations' }}>
          <Table
            verticalSpacing="sm"
            horizontalSpacing="md"
            highlightOnHover
            className={classes.table}
            style={{ '--list-min-width': '860px' }}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Person</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Portal</Table.Th>
                <Table.Th>Started</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Case</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.isPending
                ? [0, 1, 2].map((i) => (
                    <Table.Tr key={i}>
                      {[0, 1, 2, 3, 4, 5].map((j) => (
                        <Table.Td key={j}>
                          <Skeleton h={14} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))
                : data?.results.map((r) => (
                    <Table.Tr key={r.id}>
                      <Table.Td data-label="Person">
                        <Anchor
                          component={Link}
                          to={href('portal-registration', { id: r.id })}
                          fw={600}
                        >
                          {`${r.first_name} ${r.last_name}`}
                        </Anchor>
                      </Table.Td>
                      <Table.Td data-label="Email" style={{ overflowWrap: 'anywhere' }}>
                        {r.email}
                      </Table.Td>
                      <Table.Td data-label="Portal">{r.portal_title}</Table.Td>
                      <Table.Td data-label="Started" style={{ whiteSpace: 'nowrap' }}>
                        {formatDate(r.started_at)}
                      </Table.Td>
                      <Table.Td data-label="State">
                        <RegistrationStateBadge state={r.state} />
                      </Table.Td>
                      <Table.Td data-label="Case">
                        {r.case_id === null ? (
                          '—'
                        ) : (
                          <Anchor component={Link} to={href('case-detail', { id: r.case_id })}>
                            #{r.case_id}
                          </Anchor>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
        {state && (
          <ListState
            kind={state}
            plural="registrations"
            empty={{
              title: 'No registrations yet',
              text: "People who register through a process's registration portal appear here.",
            }}
            onRetry={() => void query.refetch()}
            onClear={clear}
          />
        )}
        <SimpleGrid
          cols={{ base: 1, sm: 2 }}
          p="md"
          style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
        >
          <Text size="sm" c="dimmed">
            {data?.failed ? 'Not loaded' : countLabel(data, 'registration', 'registrations')}
          </Text>
          <ListPagination
            total={pageCount(data, PAGE_SIZE)}
            value={page}
            onChange={setPage}
            label="Pages of registrations"
          />
        </SimpleGrid>
      </Paper>
    </Stack>
  );
}
