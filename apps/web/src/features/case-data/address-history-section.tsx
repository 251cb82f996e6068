import { type AddressGap, addressGaps, countryName, formatDate, MESSAGES } from '@kestrel/domain';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type RefObject, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { type CaseAddress, caseAddresses } from '../../api/case-addresses';
import { type CaseDataAudience, useDeleteCaseRow, useSaveCaseRow } from '../../api/case-data';
import {
  type AddressForm,
  addressLine as oneLine,
  addressSchema as schema,
  addressToday as today,
  addressToForm as toForm,
} from './address-form';
import { AddressLookup } from './address-lookup';
import {
  Consents,
  CountryField,
  DateField,
  DbsTextField,
  LOCKED_REASON,
  SaveRow,
} from './form-kit';
import { SectionCard } from './section-card';
import type { SectionProps } from './section-props';
import { useRowForm } from './use-row-form';

/** The other addresses whose periods share a day with this one (allowed, and shown). */
export function overlapsOf(
  a: CaseAddress,
  all: readonly CaseAddress[],
  now: string,
): CaseAddress[] {
  const end = (x: CaseAddress) => (x.current || !x.to_date ? now : x.to_date);
  if (!a.from_date) return [];
  return all.filter(
    (b) =>
      b.id !== a.id &&
      b.from_date !== null &&
      b.from_date !== undefined &&
      b.from_date <= end(a) &&
      (a.from_date ?? '') <= end(b),
  );
}

/** What the editor starts from: an address, a gap to fill, or nothing (a new address). */
type Editing = { row: CaseAddress } | { gap: AddressGap } | { fresh: true };

function AddressEditor({
  editing,
  audience,
  save,
  onClose,
  onFailed,
  retryRef,
}: {
  editing: Editing;
  audience: CaseDataAudience;
  save: ReturnType<typeof useSaveCaseRow>;
  onClose: () => void;
  onFailed: (failed: boolean) => void;
  retryRef: RefObject<(() => void) | null>;
}) {
  const row = 'row' in editing ? editing.row : null;
  const initial =
    'gap' in editing
      ? toForm({ from_date: editing.gap.from_date, to_date: editing.gap.to_date })
      : toForm(row);
  const f = useRowForm<AddressForm>({
    schema,
    initial,
    id: row?.id,
    save,
    onSaved: onClose,
    onFailed,
  });
  retryRef.current = () => void f.submit();
  const { form } = f;
  const current = useWatch({ control: form.control, name: 'current' });
  const [lookupKey, setLookupKey] = useState(0);
  const title = row ? 'Edit address' : 'gap' in editing ? 'Fill the gap' : 'Add address';
  return (
    <Paper withBorder radius="md" p="md" data-testid="address-editor">
      <form onSubmit={f.submit} noValidate aria-label={title}>
        <Stack gap="md">
          <Text fw={600}>{title}</Text>
          <AddressLookup
            key={lookupKey}
            audience={audience}
            onChoose={(a, raw) => {
              const opts = { shouldDirty: true, shouldValidate: true } as const;
              form.setValue('country', a.country, opts);
              form.setValue('line_one', a.line_one, opts);
              form.setValue('line_two', a.line_two, opts);
              form.setValue('town', a.town, opts);
              form.setValue('postcode', a.postcode, opts);
              form.setValue('source', 'OS', opts);
              form.setValue('metadata', { ...raw }, opts);
              setLookupKey((k) => k + 1);
            }}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <CountryField form={form} name="country" label="Country" dbs />
            <DbsTextField
              form={form}
              name="postcode"
              label="Postcode"
              transform={(v) => v.toUpperCase()}
            />
            <DbsTextField
              form={form}
              name="line_one"
              label="Address line 1"
              kind="addressLine"
              required
            />
            <DbsTextField form={form} name="line_two" label="Address line 2" kind="addressLine" />
            <DbsTextField form={form} name="town" label="Town" kind="place" required />
          </SimpleGrid>
          <Checkbox
            label="This is the current address"
            error={form.formState.errors.current?.message}
            {...form.register('current', {
              onChange: () => void form.trigger('to_date'),
            })}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <DateField control={form.control} name="from_date" label="From" />
            {!current && <DateField control={form.control} name="to_date" label="To" />}
          </SimpleGrid>
          {f.changed && <Consents consents={f.consents} />}
          <SaveRow disabled={!f.canSave} saving={f.saving}>
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
          </SaveRow>
        </Stack>
      </form>
    </Paper>
  );
}

function AddressRow({
  address: a,
  overlaps,
  readOnly,
  deleting,
  onEdit,
  onDelete,
}: {
  address: CaseAddress;
  overlaps: CaseAddress[];
  readOnly: boolean;
  deleting: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <Paper withBorder radius="md" p="sm" data-testid="address-row">
      <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 14rem' }}>
          <Group gap="xs">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {oneLine(a)}
            </Text>
            {a.current && (
              <Badge variant="light" color="teal">
                Current
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {a.country && a.country !== 'GBR' ? `${countryName(a.country)} · ` : ''}
            {formatDate(a.from_date)} to {a.current || !a.to_date ? 'now' : formatDate(a.to_date)}
          </Text>
          {overlaps.length > 0 && (
            <Text
              size="sm"
              c="var(--mantine-color-orange-light-color)"
              data-testid="address-overlap"
            >
              Overlaps with {overlaps.map((o) => o.line_one).join(', ')}
            </Text>
          )}
        </Stack>
        {a.source === 'idsp' ? (
          <Stack gap={2} align="flex-end">
            <Badge variant="light" color="gray">
              Locked
            </Badge>
            <Text size="xs" c="dimmed" maw={260} ta="right">
              {LOCKED_REASON}
            </Text>
          </Stack>
        ) : (
          !readOnly && (
            <Group gap="xs">
              <Button
                size="xs"
                variant="default"
                onClick={onEdit}
                aria-label={`Edit ${a.line_one}`}
              >
                Edit
              </Button>
              <Button
                size="xs"
                variant="subtle"
                color="red"
                loading={deleting}
                onClick={onDelete}
                aria-label={`Delete ${a.line_one}`}
              >
                Delete
              </Button>
            </Group>
          )
        )}
      </Group>
    </Paper>
  );
}

function GapRow({
  gap,
  readOnly,
  onFill,
}: {
  gap: AddressGap;
  readOnly: boolean;
  onFill: () => void;
}) {
  return (
    <Alert color="yellow" variant="light" data-testid="address-gap" p="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={0}>
          <Text fw={600} size="sm">
            {gap.message || MESSAGES.missingAddressInformation}
          </Text>
          <Text size="sm">
            {formatDate(gap.from_date)} to {formatDate(gap.to_date)}
          </Text>
        </Stack>
        {!readOnly && (
          <Button size="xs" variant="white" color="dark" onClick={onFill}>
            Fill this gap
          </Button>
        )}
      </Group>
    </Alert>
  );
}

/**
 * The address history of the last 60 months: addresses newest first, the gaps of the window
 * ('Missing address information', each filled in one step) and the overlaps.
 */
export function AddressHistorySection({ caseId, audience, readOnly }: SectionProps) {
  const query = useQuery(caseAddresses.options(caseId, audience));
  const save = useSaveCaseRow(caseAddresses, caseId, audience);
  const remove = useDeleteCaseRow(caseAddresses, caseId, audience);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [editKey, setEditKey] = useState(0);
  const [saveFailed, setSaveFailed] = useState(false);
  const [deleteFailed, setDeleteFailed] = useState<number | null>(null);
  const retryRef = useRef<(() => void) | null>(null);
  const now = today();
  const rows = [...(query.data?.results ?? [])].sort((a, b) =>
    (b.from_date ?? '').localeCompare(a.from_date ?? ''),
  );
  const gaps =
    query.data?.gaps ??
    (query.data
      ? addressGaps(
          rows.map((r) => ({ ...r, from_date: r.from_date ?? null })),
          now,
        )
      : []);
  const open = (e: Editing) => {
    setEditing(e);
    setEditKey((k) => k + 1);
    setSaveFailed(false);
  };
  const close = () => {
    setEditing(null);
    setSaveFailed(false);
  };
  const del = async (id: number) => {
    setDeleteFailed(null);
    try {
      await remove.mutateAsync(id);
    } catch {
      setDeleteFailed(id);
    }
  };
  const failed =
    query.isError && !query.data ? 'load' : query.isError || saveFailed || deleteFailed !== null;
  const retry = () => {
    if (query.isError) void query.refetch();
    else if (deleteFailed !== null) void del(deleteFailed);
    else retryRef.current?.();
  };
  const editor = (e: Editing) => (
    <AddressEditor
      key={editKey}
      editing={e}
      audience={audience}
      save={save}
      onClose={close}
      onFailed={setSaveFailed}
      retryRef={retryRef}
    />
  );
  const editingRow = editing && 'row' in editing ? editing.row.id : null;
  const editingGap = editing && 'gap' in editing ? editing.gap.from_date : null;
  return (
    <SectionCard
      title="Address History"
      loading={query.isPending}
      failed={failed}
      onRetry={retry}
      badge={
        query.data ? (
          <Badge variant="light" color={gaps.length ? 'yellow' : 'teal'}>
            {gaps.length
              ? `${gaps.length} ${gaps.length === 1 ? 'gap' : 'gaps'}`
              : '60 months covered'}
          </Badge>
        ) : null
      }
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          The addresses of the last 60 months, newest first.
        </Text>
        {gaps.map((g) =>
          editingGap === g.from_date && editing ? (
            <Stack key={`gap-${g.from_date}`} gap="xs">
              <GapRow gap={g} readOnly onFill={() => undefined} />
              {editor(editing)}
            </Stack>
          ) : (
            <GapRow
              key={`gap-${g.from_date}`}
              gap={g}
              readOnly={readOnly || editing !== null}
              onFill={() => open({ gap: g })}
            />
          ),
        )}
        {rows.map((a) =>
          editingRow === a.id && editing ? (
            <div key={a.id}>{editor(editing)}</div>
          ) : (
            <AddressRow
              key={a.id}
              address={a}
              overlaps={overlapsOf(a, rows, now)}
              readOnly={readOnly || editing !== null}
              deleting={remove.isPending && remove.variables === a.id}
              onEdit={() => open({ row: a })}
              onDelete={() => void del(a.id)}
            />
          ),
        )}
        {editing && 'fresh' in editing && editor(editing)}
        {!readOnly && editing === null && (
          <Group>
            <Button variant="light" onClick={() => open({ fresh: true })}>
              Add address
            </Button>
          </Group>
        )}
      </Stack>
    </SectionCard>
  );
}
