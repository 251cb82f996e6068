import {
  Anchor,
  Checkbox,
  Group,
  Paper,
  ScrollArea,
  Select,
  Skeleton,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { upperFirst, useDebouncedValue } from '@mantine/hooks';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import type { ListPage } from '../api/client';
import type { QueryParams } from '../api/query-string';
import { countLabel, pageCount } from './count-label';
import { Icon } from './icons';
import { type EmptyState, ListPagination, ListState, listStateOf } from './list-states';
import classes from './list-table.module.css';

export interface Column<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  /** The API's `ordering` field for this column, if it can sort. */
  ordering?: string;
}

export interface SelectFilter {
  name: string;
  label: string;
  options: { value: string; label: string }[];
}

/** Anything with a list query: a resource from `defineResource`. */
export interface ListSource<T> {
  names: { item?: string; plural: string };
  useList: (params?: QueryParams) => {
    data?: ListPage<T>;
    isPending: boolean;
    isFetching: boolean;
    refetch: () => unknown;
  };
}

export interface ResourceTableProps<T extends { id: number | string }> {
  resource: ListSource<T>;
  columns: Column<T>[];
  filters?: SelectFilter[];
  /** Fixed params (e.g. `{case: 4}`) merged into every request. */
  params?: QueryParams;
  pageSize?: number;
  searchable?: boolean;
  rowHref?: (row: T) => string;
  caption?: string;
  /** What an organisation with no rows yet sees, and its next step. */
  empty?: EmptyState;
  /** Filters kept outside the table (e.g. the audit log's form): set, and how to clear them. */
  externalFilters?: { active: boolean; clear: () => void };
  /**
   * Rows chosen for an action on many (a checkbox per row, and one for the page): the ids
   * chosen, across pages, and each row's name for its checkbox's label.
   */
  selection?: {
    selected: ReadonlySet<T['id']>;
    onChange: (next: Set<T['id']>) => void;
    label: (row: T) => string;
  };
}

/** A paginated, searchable, filterable list of one API resource. */
export function ResourceTable<T extends { id: number | string }>({
  resource,
  columns,
  filters = [],
  params,
  pageSize = 25,
  searchable = true,
  rowHref,
  caption,
  empty,
  externalFilters,
  selection,
}: ResourceTableProps<T>) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [filterValues, setFilterValues] = useState<Record<string, string | null>>({});
  const query = resource.useList({
    ...params,
    ...Object.fromEntries(Object.entries(filterValues).filter(([, v]) => v)),
    search: debounced || undefined,
    page,
    page_size: pageSize,
  });
  const data = query.data;
  const pages = pageCount(data, pageSize);
  const filtered =
    search.trim() !== '' ||
    Object.values(filterValues).some(Boolean) ||
    Boolean(externalFilters?.active);
  const state = listStateOf(query, filtered);
  const rows = data?.results ?? [];
  const chosenOnPage = selection ? rows.filter((r) => selection.selected.has(r.id)).length : 0;
  const toggle = (ids: T['id'][], on: boolean) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    selection.onChange(next);
  };
  const clear = () => {
    setSearch('');
    setFilterValues({});
    setPage(1);
    externalFilters?.clear();
  };

  return (
    <Paper withBorder radius="lg" data-testid="resource-table">
      {(searchable || filters.length > 0) && (
        <Group
          p="md"
          gap="sm"
          style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
        >
          {searchable && (
            <TextInput
              aria-label={`Search ${resource.names.plural}`}
              placeholder="Search…"
              leftSection={<Icon name="search" size={16} />}
              value={search}
              onChange={(e) => {
                setSearch(e.currentTarget.value);
                setPage(1);
              }}
              size="sm"
              w={{ base: '100%', sm: 280 }}
            />
          )}
          {filters.map((f) => (
            <Select
              key={f.name}
              aria-label={f.label}
              placeholder={f.label}
              data={f.options}
              clearable
              size="sm"
              value={filterValues[f.name] ?? null}
              onChange={(v) => {
                setFilterValues((prev) => ({ ...prev, [f.name]: v }));
                setPage(1);
              }}
            />
          ))}
        </Group>
      )}
      {/* A table wider than the screen scrolls sideways: its viewport takes the keyboard's
          focus and has a name, so it can be scrolled without a mouse (WCAG 2.1.1, axe's
          scrollable-region-focusable). */}
      <ScrollArea
        viewportProps={{
          tabIndex: 0,
          role: 'region',
          'aria-label': caption ?? upperFirst(resource.names.plural),
        }}
      >
        <Table
          verticalSpacing="sm"
          horizontalSpacing="md"
          highlightOnHover={Boolean(rowHref)}
          className={classes.table}
        >
          {caption && <Table.Caption>{caption}</Table.Caption>}
          <Table.Thead>
            <Table.Tr>
              {selection && (
                <Table.Th w={40}>
                  <Checkbox
                    aria-label={`Choose every ${resource.names.item ?? resource.names.plural} on this page`}
                    checked={rows.length > 0 && chosenOnPage === rows.length}
                    indeterminate={chosenOnPage > 0 && chosenOnPage < rows.length}
                    disabled={rows.length === 0}
                    onChange={(e) =>
                      toggle(
                        rows.map((r) => r.id),
                        e.currentTarget.checked,
                      )
                    }
                  />
                </Table.Th>
              )}
              {columns.map((c) => (
                <Table.Th key={c.key}>{c.header}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {query.isPending
              ? [0, 1, 2].map((i) => (
                  <Table.Tr key={i}>
                    {selection && <Table.Td />}
                    {columns.map((c) => (
                      <Table.Td key={c.key}>
                        <Skeleton h={14} />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              : data?.results.map((row) => (
                  <Table.Tr key={row.id}>
                    {selection && (
                      <Table.Td>
                        <Checkbox
                          aria-label={`Choose ${selection.label(row)}`}
                          checked={selection.selected.has(row.id)}
                          onChange={(e) => toggle([row.id], e.currentTarget.checked)}
                        />
                      </Table.Td>
                    )}
                    {columns.map((c, i) => (
                      <Table.Td key={c.key} data-label={c.header}>
                        {i === 0 && rowHref ? (
                          <Anchor component={Link} to={rowHref(row)} fw={600}>
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
          plural={resource.names.plural}
          empty={empty}
          onRetry={() => void query.refetch()}
          onClear={clear}
        />
      )}
      <Group
        justify="space-between"
        p="md"
        style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
      >
        <Text size="sm" c="dimmed">
          {data?.failed
            ? 'Not loaded'
            : countLabel(data, resource.names.item ?? resource.names.plural, resource.names.plural)}
        </Text>
        <ListPagination
          total={pages}
          value={page}
          onChange={setPage}
          label={`Pages of ${resource.names.plural}`}
        />
      </Group>
    </Paper>
  );
}
