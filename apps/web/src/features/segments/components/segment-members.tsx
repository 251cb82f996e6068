import { Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { defineResource, type ResourceNames } from '../../../api/resource';
import { type Column, ResourceTable } from '../../../components/resource-table';
import { type Segment, segments } from '../api';
import { LIMITED_MEMBERS_NOTE, useSegmentRights } from '../segment-rights';

export interface Choice {
  value: string;
  label: string;
}

/** One kind of member of a segment (its users, its processes) and how to pick a new one. */
export interface MemberKind<Row extends { id: number }> {
  /** The sub-resource under the segment: 'users' or 'processes'. */
  sub: 'users' | 'processes';
  /** The field POST sends: `{user: id}` or `{process: id}`. */
  field: 'user' | 'process';
  names: ResourceNames;
  columns: Column<Row>[];
  /** How a row is named in its button's accessible name ('Remove Ann Lee'). */
  label: (row: Row) => string;
  /** The candidates matching a search (the organisation's users or processes). */
  useChoices: (search: string) => { data: Choice[]; loading: boolean };
  pickLabel: string;
  addText: string;
  removeText: string;
  intro: string;
  empty: { title: string; text: string };
  /** Other resources whose rows show this link (a process shows its segment). */
  alsoRefresh?: readonly (readonly unknown[])[];
}

function AddMember<Row extends { id: number }>({
  kind,
  onAdd,
  busy,
}: {
  kind: MemberKind<Row>;
  onAdd: (id: number) => Promise<boolean>;
  busy: boolean;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [picked, setPicked] = useState<string | null>(null);
  const choices = kind.useChoices(debounced);
  const add = async () => {
    if (!picked) return;
    if (await onAdd(Number(picked))) {
      setPicked(null);
      setSearch('');
    }
  };
  return (
    <Paper withBorder radius="lg" p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {kind.addText}
        </Title>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            label={kind.pickLabel}
            placeholder="Type to search"
            searchable
            data={choices.data}
            filter={({ options }) => options}
            searchValue={search}
            onSearchChange={setSearch}
            value={picked}
            onChange={setPicked}
            nothingFoundMessage={choices.loading ? 'Searching…' : 'Nothing found'}
            w={{ base: '100%', sm: 360 }}
          />
          <Button onClick={() => void add()} disabled={!picked} loading={busy}>
            {kind.addText}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * A segment's users or processes: the list (search, pages), a remove button on each row and an
 * add form, both only with segments.change_segment and to a user not limited to segments (the
 * server refuses them: they would widen or leave their own sight).
 */
export function SegmentMembers<Row extends { id: number }>({
  segment,
  kind,
}: {
  segment: Segment;
  kind: MemberKind<Row>;
}) {
  const rights = useSegmentRights();
  const mayChange = rights.changeMembers;
  const client = useQueryClient();
  const resource = useMemo(
    () => defineResource<Row>(`${segments.path}${segment.id}/${kind.sub}/`, kind.names),
    [segment.id, kind.sub, kind.names],
  );
  const save = resource.useSave();
  const remove = resource.useDelete();
  const refresh = async () => {
    await client.invalidateQueries({ queryKey: segments.key });
    for (const key of kind.alsoRefresh ?? []) await client.invalidateQueries({ queryKey: key });
  };
  const onAdd = async (id: number) => {
    try {
      await save.mutateAsync({ values: { [kind.field]: id } });
    } catch {
      return false; // the resource toasted 'Error adding …' with the server's lines
    }
    await refresh();
    return true;
  };
  const onRemove = async (row: Row) => {
    try {
      await remove.mutateAsync(row.id);
    } catch {
      return;
    }
    await refresh();
  };
  const columns: Column<Row>[] = mayChange
    ? [
        ...kind.columns,
        {
          key: 'actions',
          header: 'Actions',
          render: (row) => (
            <Button
              size="xs"
              variant="light"
              color="red"
              loading={remove.isPending && remove.variables === row.id}
              onClick={() => void onRemove(row)}
              aria-label={`${kind.removeText} ${kind.label(row)}`}
            >
              {kind.removeText}
            </Button>
          ),
        },
      ]
    : kind.columns;
  return (
    <Stack gap="lg">
      <Text size="sm" c="dimmed">
        {kind.intro}
      </Text>
      {rights.limited && rights.editDetails && (
        <Text size="sm" c="dimmed">
          {LIMITED_MEMBERS_NOTE}
        </Text>
      )}
      <ResourceTable<Row> resource={resource} columns={columns} empty={kind.empty} />
      {mayChange && <AddMember kind={kind} onAdd={onAdd} busy={save.isPending} />}
    </Stack>
  );
}
