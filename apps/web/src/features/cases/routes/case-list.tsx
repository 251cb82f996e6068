import { formatDate } from '@kestrel/domain';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  ScrollArea,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { cases } from '../../../api/cases';
import { buildQuery, type QueryParams } from '../../../api/query-string';
import { useRememberListSearch } from '../../../components/back-to-list';
import { countLabel, pageCount } from '../../../components/count-label';
import { Email } from '../../../components/email';
import { ListPagination, ListState, listStateOf } from '../../../components/list-states';
import classes from '../../../components/list-table.module.css';
import { StateBadge } from '../../../components/state-badge';
import { href } from '../../../config/paths';
import { Can } from '../../../lib/rights';
import { CaseFilters, type CaseFilterValues } from '../components/case-filters';

const PAGE_SIZE = 25;

function readFilters(p: URLSearchParams): CaseFilterValues {
  return {
    search: p.get('search') ?? '',
    state: (p.get('state') ?? '').split(',').filter(Boolean),
    process: p.get('process'),
    flagged: p.get('flagged'),
    is_archived: p.get('is_archived'),
    created_after: p.get('created_after'),
    created_before: p.get('created_before'),
    ordering: p.get('ordering') ?? '-created_at',
  };
}

/** The API's query for these filters (empty values left out). */
function apiParams(f: CaseFilterValues): QueryParams {
  return {
    search: f.search || undefined,
    state: f.state.length ? f.state.join(',') : undefined,
    process: f.process ?? undefined,
    flagged: f.flagged ?? undefined,
    is_archived: f.is_archived ?? undefined,
    created_after: f.created_after ?? undefined,
    created_before: f.created_before ?? undefined,
    ordering: f.ordering,
  };
}

export default function CaseList() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const [filtersOpen, setFiltersOpen] = useState(false);
  useRememberListSearch(href('cases'), location.search);
  const filters = readFilters(params);
  const page = Number(params.get('page') ?? '1') || 1;
  const query = cases.useList({ ...apiParams(filters), page, page_size: PAGE_SIZE });
  const data = query.data;
  const pages = pageCount(data, PAGE_SIZE);

  // The filters as last asked for: a navigation waits for the route's loader, and a second change
  // made meanwhile (the typed search arriving after a filter was chosen) builds on the first,
  // not on the URL still showing neither (which would undo the first).
  const asked = useRef({ search: location.search, filters });
  if (asked.current.search !== location.search)
    asked.current = { search: location.search, filters };
  const update = (patch: Partial<CaseFilterValues>) => {
    const next = { ...asked.current.filters, ...patch };
    asked.current = { search: location.search, filters: next };
    const q = apiParams(next);
    const sp = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) {
      if (v !== undefined && v !== null && !(k === 'ordering' && v === '-created_at')) {
        sp.set(k, String(v));
      }
    }
    setParams(sp, { replace: true });
  };
  const setPage = (n: number) => {
    const sp = new URLSearchParams(params);
    sp.set('page', String(n));
    setParams(sp, { replace: true });
  };
  const filtered = Object.entries(apiParams(filters)).some(
    ([k, v]) => k !== 'ordering' && v !== undefined,
  );
  const state = listStateOf(query, filtered);
  const clearFilters = () => setParams(new URLSearchParams(), { replace: true });
  const exportHref = `/api/cases/export/${buildQuery({ ...apiParams(filters), ordering: undefined })}`;

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1}>Cases</Title>
        <Group gap="sm">
          <Button variant="default" component="a" href={exportHref} download="cases.csv">
            Export CSV
          </Button>
          <Can permission={['cases.add_case', 'subjects.add_subject']}>
            <Button variant="default" component={Link} to={href('case-bulk-invite')}>
              Bulk invite
            </Button>
          </Can>
          <Can permission="cases.add_case">
            <Button component={Link} to={href('case-add')}>
              Add case
            </Button>
          </Can>
        </Group>
      </Group>
      <Paper withBorder radius="lg" data-testid="case-list">
        <Stack
          p="md"
          gap={0}
          style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
        >
          {/* On a phone the filters fold away behind one button, so the cases come first. */}
          <Button
            hiddenFrom="sm"
            variant="default"
            onClick={() => setFiltersOpen((open) => !open)}
            aria-expanded={filtersOpen}
            aria-controls="case-filters"
          >
            {filtersOpen ? 'Hide search and filters' : 'Search and filters'}
            {filtered ? ' (on)' : ''}
          </Button>
          <div
            id="case-filters"
            className={filtersOpen ? classes.filtersOpen : classes.filtersFolded}
          >
            <CaseFilters value={filters} onChange={update} />
          </div>
        </Stack>
        <ScrollArea>
          <Table
            verticalSpacing="sm"
            horizontalSpacing="md"
            highlightOnHover
            className={classes.table}
            style={{ '--list-min-width': '900px' }}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Case</Table.Th>
                <Table.Th>Subject</Table.Th>
                <Table.Th>Process</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Opened</Table.Th>
                <Table.Th>Updated</Table.Th>
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
                : data?.results.map((c) => (
                    <Table.Tr key={c.id}>
                      <Table.Td data-label="Case">
                        <Group gap={6} wrap="nowrap">
                          <Anchor component={Link} to={href('case-detail', { id: c.id })} fw={600}>
                            #{c.id}
                          </Anchor>
                          {c.flagged && (
                            <Badge size="xs" color="red" variant="filled" style={{ flexShrink: 0 }}>
                              Flagged
                            </Badge>
                          )}
                          {c.is_archived && (
                            <Badge size="xs" color="gray" variant="light" style={{ flexShrink: 0 }}>
                              Archived
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td data-label="Subject">
                        <div>
                          <Text size="sm" fw={500}>
                            {c.subject.first_name} {c.subject.last_name}
                          </Text>
                          <Text size="xs" c="dimmed">
                            <Email address={c.subject.email} />
                          </Text>
                        </div>
                      </Table.Td>
                      <Table.Td data-label="Process">{c.process.name}</Table.Td>
                      <Table.Td data-label="State" style={{ whiteSpace: 'nowrap' }}>
                        <StateBadge state={c.state} label={c.state_display} />
                      </Table.Td>
                      <Table.Td data-label="Opened" style={{ whiteSpace: 'nowrap' }}>
                        {formatDate(c.created_at)}
                      </Table.Td>
                      <Table.Td data-label="Updated" style={{ whiteSpace: 'nowrap' }}>
                        {formatDate(c.updated_at)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
        {state && (
          <ListState
            kind={state}
            plural="cases"
            onRetry={() => void query.refetch()}
            onClear={clearFilters}
            empty={{
              title: 'No cases yet',
              text: 'A case runs the checks of one of your processes for one person. Open your first case to start screening.',
              action: (
                <Can permission="cases.add_case">
                  <Button component={Link} to={href('case-add')} size="sm">
                    Add your first case
                  </Button>
                </Can>
              ),
            }}
          />
        )}
        <Group
          justify="space-between"
          p="md"
          style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
        >
          <Text size="sm" c="dimmed" data-testid="case-count">
            {data?.failed ? 'Not loaded' : countLabel(data, 'case', 'cases')}
          </Text>
          <ListPagination total={pages} value={page} onChange={setPage} label="Pages of cases" />
        </Group>
      </Paper>
    </Stack>
  );
}
