import { LICENCE_STATUS_LABELS, LICENCE_STATUSES } from '@kestrel/domain';
import { Button, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { Icon } from '../../../components/icons';
import { licenceGroups, licenceSubGroups } from '../api';

export const LICENCE_FILTERS = ['status', 'group', 'sub_group', 'q'] as const;
export type LicenceFilters = Record<(typeof LICENCE_FILTERS)[number], string>;

/** The filters as the URL holds them ('' when not set). */
export function readLicenceFilters(p: URLSearchParams): LicenceFilters {
  return {
    status: p.get('status') ?? '',
    group: p.get('group') ?? '',
    sub_group: p.get('sub_group') ?? '',
    q: p.get('q') ?? '',
  };
}

/** The licences list's filters: status, group, sub-group (of the chosen group) and a search. */
export function LicenceFilterFields({
  filters,
  update,
  clear,
}: {
  filters: LicenceFilters;
  update: (patch: Partial<LicenceFilters>) => void;
  clear: () => void;
}) {
  const [search, setSearch] = useState(filters.q);
  const pushSearch = useDebouncedCallback((v: string) => update({ q: v.trim() }), 300);
  const groups = licenceGroups.useList({ page_size: 100 });
  const subGroups = licenceSubGroups.useList({
    page_size: 100,
    group: filters.group || undefined,
  });
  const filtered = Object.values(filters).some((v) => v !== '');
  return (
    <Stack
      p="md"
      gap="sm"
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
        <TextInput
          label="Search"
          placeholder="Holder or licence number"
          leftSection={<Icon name="search" size={16} />}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            pushSearch(e.currentTarget.value);
          }}
        />
        <Select
          label="Status"
          placeholder="Any status"
          data={LICENCE_STATUSES.map((s) => ({ value: s, label: LICENCE_STATUS_LABELS[s] }))}
          value={filters.status || null}
          onChange={(v) => update({ status: v ?? '' })}
          clearable
          size="md"
        />
        <Select
          label="Group"
          placeholder="Any group"
          data={(groups.data?.results ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
          value={filters.group || null}
          onChange={(v) => update({ group: v ?? '', sub_group: '' })}
          clearable
          size="md"
        />
        <Select
          label="Sub-group"
          placeholder="Any sub-group"
          data={(subGroups.data?.results ?? []).map((s) => ({
            value: String(s.id),
            label: filters.group ? s.name : `${s.name} (${s.group_name})`,
          }))}
          value={filters.sub_group || null}
          onChange={(v) => update({ sub_group: v ?? '' })}
          clearable
          size="md"
        />
      </SimpleGrid>
      {filtered && (
        <Button
          variant="subtle"
          style={{ alignSelf: 'flex-start' }}
          onClick={() => {
            setSearch('');
            clear();
          }}
        >
          Clear filters
        </Button>
      )}
    </Stack>
  );
}
