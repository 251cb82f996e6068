import { formatDate } from '@kestrel/domain';
import {
  Anchor,
  Group,
  Paper,
  ScrollArea,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import type { QueryParams } from '../../../api/query-string';
import { useRememberListSearch } from '../../../components/back-to-list';
import { countLabel, pageCount } from '../../../components/count-label';
import { ListPagination, ListState, listStateOf } from '../../../components/list-states';
import classes from '../../../components/list-table.module.css';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { licences } from '../api';
import { IssueLicence } from '../components/issue-licence';
import {
  LICENCE_FILTERS,
  LicenceFilterFields,
  type LicenceFilters,
  readLicenceFilters,
} from '../components/licence-filters';
import { LicencePanel } from '../components/licence-panel';
import { LicenceStatusBadge } from '../components/licence-status-badge';
import { RegisterSearch } from '../components/register-search';
import own from './licences.module.css';

const PAGE_SIZE = 25;
const HEADERS = ['Number', 'Holder', 'Group', 'Sub-group', 'Status', 'Issued', 'Expires'];

const apiParams = (f: LicenceFilters): QueryParams =>
  Object.fromEntries(LICENCE_FILTERS.map((k) => [k, f[k] || undefined]));

/**
 * /licences: the council's issued licences, filters and page in the URL, newest issue first;
 * `?licence={id}` opens one beside the list with its trail and actions.
 */
export default function Licences() {
  const { can } = useRights();
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  useRememberListSearch(href('licences'), location.search);
  const filters = readLicenceFilters(params);
  const page = Number(params.get('page') ?? '1') || 1;
  const open = params.get('licence');
  const query = licences.useList({ ...apiParams(filters), page, page_size: PAGE_SIZE });
  const data = query.data;
  const [resetKey, setResetKey] = useState(0);

  // The filters as last asked for: a second change made before the URL shows the first builds
  // on the first (a typed search arriving after a filter was chosen).
  const asked = useRef({ search: location.search, filters });
  if (asked.current.search !== location.search)
    asked.current = { search: location.search, filters };
  const update = (patch: Partial<LicenceFilters>) => {
    const next = { ...asked.current.filters, ...patch };
    asked.current = { search: location.search, filters: next };
    const sp = new URLSearchParams();
    for (const k of LICENCE_FILTERS) if (next[k]) sp.set(k, next[k]);
    setParams(sp, { replace: true });
  };
  const clear = () => {
    setResetKey((n) => n + 1);
    setParams(new URLSearchParams(), { replace: true });
  };
  const withParam = (name: string, value: string | null, replace: boolean) => {
    const sp = new URLSearchParams(params);
    if (value === null) sp.delete(name);
    else sp.set(name, value);
    setParams(sp, { replace });
  };
  const filtered = LICENCE_FILTERS.some((k) => filters[k] !== '');
  const state = listStateOf(query, filtered);

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Stack gap={4}>
          <Title order={1}>Licences</Title>
          <Text size="sm" c="dimmed">
            Licences your council has issued. Open one to see its conditions and trail, or to
            suspend, revoke or reinstate it.
          </Text>
        </Stack>
        {can('lms_licences.add_licence') && (
          <IssueLicence onIssued={(l) => withParam('licence', String(l.id), false)} />
        )}
      </Group>
      <Paper withBorder radius="lg" data-testid="licence-list">
        <LicenceFilterFields key={resetKey} filters={filters} update={update} clear={clear} />
        <ScrollArea viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Licences' }}>
          <Table
            verticalSpacing="sm"
            horizontalSpacing="md"
            highlightOnHover
            className={classes.table}
            style={{ '--list-min-width': '900px' }}
          >
            <Table.Caption className={own.caption}>Licences, newest issue first</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                {HEADERS.map((h) => (
                  <Table.Th key={h}>{h}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.isPending
                ? [0, 1, 2].map((i) => (
                    <Table.Tr key={i}>
                      {HEADERS.map((h) => (
                        <Table.Td key={h}>
                          <Skeleton h={14} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))
                : data?.results.map((l) => (
                    <Table.Tr key={l.id}>
                      <Table.Td data-label="Number">
                        <Anchor
                          component="button"
                          type="button"
                          fw={600}
                          aria-label={`Open licence ${l.number}`}
                          onClick={() => withParam('licence', String(l.id), false)}
                        >
                          {l.number}
                        </Anchor>
                      </Table.Td>
                      <Table.Td data-label="Holder">{l.holder_name}</Table.Td>
                      <Table.Td data-label="Group">{l.group_name}</Table.Td>
                      <Table.Td data-label="Sub-group">{l.sub_group_name}</Table.Td>
                      <Table.Td data-label="Status">
                        <LicenceStatusBadge status={l.status} />
                      </Table.Td>
                      <Table.Td data-label="Issued" style={{ whiteSpace: 'nowrap' }}>
                        {formatDate(l.issue_date)}
                      </Table.Td>
                      <Table.Td data-label="Expires" style={{ whiteSpace: 'nowrap' }}>
                        {formatDate(l.expiry_date)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
        {state && (
          <ListState
            kind={state}
            plural="licences"
            empty={{
              title: 'No licences yet',
              text: 'Licences appear here once they are issued, when an application is granted.',
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
            {data?.failed ? 'Not loaded' : countLabel(data, 'licence', 'licences')}
          </Text>
          <ListPagination
            total={pageCount(data, PAGE_SIZE)}
            value={page}
            onChange={(n) => withParam('page', String(n), true)}
            label="Pages of licences"
          />
        </SimpleGrid>
      </Paper>
      <RegisterSearch />
      <LicencePanel id={open} onClose={() => withParam('licence', null, false)} />
    </Stack>
  );
}
