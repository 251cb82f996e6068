import { CASE_STATE_LABELS, CASE_STATES } from '@kestrel/domain';
import { Button, Collapse, Group, MultiSelect, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { processes as processList } from '../../../api/processes';
import { DateSelector } from '../../../components/date-selector';
import { Icon } from '../../../components/icons';
import { useRights } from '../../../lib/rights';

export interface CaseFilterValues {
  search: string;
  state: string[];
  process: string | null;
  flagged: string | null;
  is_archived: string | null;
  created_after: string | null;
  created_before: string | null;
  ordering: string;
}

export const ORDERINGS = [
  { value: '-created_at', label: 'Newest first' },
  { value: 'created_at', label: 'Oldest first' },
  { value: '-updated_at', label: 'Recently updated' },
  { value: 'state', label: 'State' },
  { value: 'last_name', label: 'Subject last name' },
];

const today = () => new Date().toISOString().slice(0, 10);

/** The case list's filters: free text, state, process, flagged, archived, dates, ordering. */
export function CaseFilters({
  value,
  onChange,
}: {
  value: CaseFilterValues;
  onChange: (patch: Partial<CaseFilterValues>) => void;
}) {
  const [search, setSearch] = useState(value.search);
  const pushSearch = useDebouncedCallback((v: string) => onChange({ search: v }), 300);
  const [more, setMore] = useState(Boolean(value.created_after || value.created_before));
  // the process filter is for those who may see processes (a custom role may not: no list, no
  // 'Error getting list of processes')
  const seesProcesses = useRights().can('processes.view_process');
  const processes = useQuery({
    ...processList.listOptions({ page_size: 100 }),
    enabled: seesProcesses,
  });
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
        <TextInput
          label="Search"
          size="sm"
          placeholder="Subject name or email"
          leftSection={<Icon name="search" size={16} />}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            pushSearch(e.currentTarget.value);
          }}
        />
        <MultiSelect
          label="State"
          placeholder={value.state.length ? undefined : 'Any state'}
          data={CASE_STATES.map((s) => ({ value: s, label: CASE_STATE_LABELS[s] }))}
          value={value.state}
          onChange={(v) => onChange({ state: v })}
          clearable
        />
        {seesProcesses && (
          <Select
            label="Process"
            placeholder="Any process"
            data={(processes.data?.results ?? []).map((p) => ({
              value: String(p.id),
              label: p.name,
            }))}
            value={value.process}
            onChange={(v) => onChange({ process: v })}
            clearable
            searchable
          />
        )}
        <Select
          label="Flagged"
          placeholder="Flagged or not"
          data={[
            { value: 'true', label: 'Flagged' },
            { value: 'false', label: 'Not flagged' },
          ]}
          value={value.flagged}
          onChange={(v) => onChange({ flagged: v })}
          clearable
        />
      </SimpleGrid>
      <Group justify="space-between" mt="sm" align="flex-end">
        <Group gap="sm" align="flex-end">
          <Select
            label="Archived"
            data={[
              { value: '', label: 'Current cases' },
              { value: 'true', label: 'Archived cases' },
              { value: 'all', label: 'All cases' },
            ]}
            value={value.is_archived ?? ''}
            onChange={(v) => onChange({ is_archived: v || null })}
            allowDeselect={false}
            w={180}
          />
          <Select
            label="Sort by"
            data={ORDERINGS}
            value={value.ordering}
            onChange={(v) => onChange({ ordering: v ?? '-created_at' })}
            allowDeselect={false}
            w={200}
          />
        </Group>
        <Button variant="subtle" onClick={() => setMore((m) => !m)} aria-expanded={more}>
          {more ? 'Fewer filters' : 'Filter by date'}
        </Button>
      </Group>
      <Collapse expanded={more}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt="sm">
          <DateSelector
            label="Opened on or after"
            required={false}
            value={value.created_after}
            max={today()}
            onChange={(v) => onChange({ created_after: v })}
          />
          <DateSelector
            label="Opened on or before"
            required={false}
            value={value.created_before}
            max={today()}
            onChange={(v) => onChange({ created_before: v })}
          />
        </SimpleGrid>
      </Collapse>
    </>
  );
}
