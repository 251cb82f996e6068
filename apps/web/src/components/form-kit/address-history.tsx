import { type AddressGap, countryName, formatDate, MESSAGES } from '@kestrel/domain';
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
import { type FormEventHandler, type ReactNode, useState } from 'react';
import { type UseFormReturn, useWatch } from 'react-hook-form';
import type { CaseAddress } from '../../api/case-addresses';
import type { CaseDataAudience } from '../../api/case-data';
import { type AddressForm, addressLine } from './address-form';
import { AddressLookup } from './address-lookup';
import { CountryField, DbsTextField, LOCKED_REASON } from './case-fields';
import { DateField } from './fields';

/**
 * The address history editor both the staff case data screen and the subject portal use: the
 * gaps of the window, the addresses newest first, and one editor open at a time (in place of
 * its row or gap, or at the end for a new address). `wording` picks the words and sizes: the
 * staff's compact ones or the subject's (larger touch targets, in the second person).
 */
export type AddressWording = 'staff' | 'subject';

const WORDS = {
  staff: {
    title: { id: 'Edit address', gap: 'Fill the gap', fresh: 'Add address' },
    fill: 'Fill this gap',
    edit: 'Edit',
    remove: 'Delete',
    add: 'Add address',
    current: 'This is the current address',
    from: 'From',
    to: 'To',
    rowButton: 'xs',
  },
  subject: {
    title: { id: 'Change this address', gap: 'Add the missing address', fresh: 'Add an address' },
    fill: 'Add an address for this time',
    edit: 'Change',
    remove: 'Remove',
    add: 'Add another address',
    current: 'I live here now',
    from: 'Lived here from',
    to: 'Lived here until',
    rowButton: 'md',
  },
} as const;

/** The summary labels of the address fields (the subject's words). */
export const ADDRESS_LABELS: Readonly<Record<string, string>> = {
  country: 'Country',
  country_dbs: 'Country (for DBS)',
  postcode: 'Postcode',
  line_one: 'Address line 1',
  line_one_dbs: 'Address line 1 (for DBS)',
  line_two: 'Address line 2',
  line_two_dbs: 'Address line 2 (for DBS)',
  town: 'Town',
  town_dbs: 'Town (for DBS)',
  current: 'Current address',
  from_date: 'Lived here from',
  to_date: 'Lived here until',
};

/** What the editor is for: an address, a gap to fill, or a new address. */
export type AddressEditing = { id: number } | { gap: AddressGap } | { fresh: true };

/** The editor's title for what it edits. */
export function addressEditorTitle(editing: AddressEditing, wording: AddressWording): string {
  const t = WORDS[wording].title;
  return 'id' in editing ? t.id : 'gap' in editing ? t.gap : t.fresh;
}

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

/**
 * The address inputs: the postcode lookup (its choice fills the fields, by hand otherwise),
 * the lines with their '(for DBS)' alternatives, the country, 'current' and the dates (no
 * 'to' date for the current address). Staff: country first, and the lookup clears after a
 * choice for the next search.
 */
export function AddressFields({
  form,
  audience,
  wording,
  resetKey,
}: {
  form: UseFormReturn<AddressForm>;
  audience: CaseDataAudience;
  wording: AddressWording;
  resetKey?: number;
}) {
  const w = WORDS[wording];
  const current = useWatch({ control: form.control, name: 'current' });
  const [lookupKey, setLookupKey] = useState(0);
  const country = <CountryField form={form} name="country" label="Country" dbs />;
  const postcode = (
    <DbsTextField form={form} name="postcode" label="Postcode" transform={(v) => v.toUpperCase()} />
  );
  const lines = (
    <>
      <DbsTextField
        form={form}
        name="line_one"
        label="Address line 1"
        kind="addressLine"
        required
      />
      <DbsTextField form={form} name="line_two" label="Address line 2" kind="addressLine" />
      <DbsTextField form={form} name="town" label="Town" kind="place" required />
    </>
  );
  return (
    <>
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
          if (wording === 'staff') setLookupKey((k) => k + 1);
        }}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {wording === 'staff' ? (
          <>
            {country}
            {postcode}
            {lines}
          </>
        ) : (
          <>
            {lines}
            {postcode}
            {country}
          </>
        )}
      </SimpleGrid>
      <Checkbox
        size={wording === 'subject' ? 'md' : undefined}
        label={w.current}
        error={form.formState.errors.current?.message}
        {...form.register('current', { onChange: () => void form.trigger('to_date') })}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <DateField control={form.control} name="from_date" label={w.from} resetKey={resetKey} />
        {!current && (
          <DateField control={form.control} name="to_date" label={w.to} resetKey={resetKey} />
        )}
      </SimpleGrid>
    </>
  );
}

/** The editor's frame: a bordered card holding its own form, titled by what it edits. */
export function AddressEditorCard({
  editing,
  wording,
  onSubmit,
  children,
}: {
  editing: AddressEditing;
  wording: AddressWording;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}) {
  const title = addressEditorTitle(editing, wording);
  const subject = wording === 'subject';
  return (
    <Paper
      withBorder
      radius="md"
      p={subject ? { base: 'sm', sm: 'md' } : 'md'}
      data-testid="address-editor"
    >
      <form onSubmit={onSubmit} noValidate aria-label={title}>
        <Stack gap="md">
          {subject ? (
            <Text fw={700} component="h2" size="lg">
              {title}
            </Text>
          ) : (
            <Text fw={600}>{title}</Text>
          )}
          {children}
        </Stack>
      </form>
    </Paper>
  );
}

function GapRow({
  gap,
  wording,
  canFill,
  onFill,
}: {
  gap: AddressGap;
  wording: AddressWording;
  canFill: boolean;
  onFill: () => void;
}) {
  const subject = wording === 'subject';
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
        {canFill && (
          <Button size={subject ? 'md' : 'xs'} variant="white" color="dark" onClick={onFill}>
            {WORDS[wording].fill}
          </Button>
        )}
      </Group>
    </Alert>
  );
}

function AddressRow({
  address: a,
  overlaps,
  wording,
  canChange,
  deleting,
  onEdit,
  onDelete,
}: {
  address: CaseAddress;
  overlaps: readonly CaseAddress[];
  wording: AddressWording;
  canChange: boolean;
  deleting: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const w = WORDS[wording];
  return (
    <Paper withBorder radius="md" p="sm" data-testid="address-row">
      <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 14rem' }}>
          <Group gap="xs">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {addressLine(a)}
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
          wording === 'staff' ? (
            <Stack gap={2} align="flex-end">
              <Badge variant="light" color="gray">
                Locked
              </Badge>
              <Text size="xs" c="dimmed" maw={260} ta="right">
                {LOCKED_REASON}
              </Text>
            </Stack>
          ) : (
            <Text size="sm" c="dimmed" maw={280}>
              {LOCKED_REASON}
            </Text>
          )
        ) : (
          canChange && (
            <Group gap="xs">
              <Button
                size={w.rowButton}
                variant="default"
                onClick={onEdit}
                aria-label={`${w.edit} ${a.line_one}`}
              >
                {w.edit}
              </Button>
              <Button
                size={w.rowButton}
                variant="subtle"
                color="red"
                loading={deleting}
                onClick={onDelete}
                aria-label={`${w.remove} ${a.line_one}`}
              >
                {w.remove}
              </Button>
            </Group>
          )
        )}
      </Group>
    </Paper>
  );
}

/**
 * The gaps (each with its 'fill' button), the addresses (change, remove; an identity-checked
 * one locked) and the 'add' button; the open editor (`editor(editing)`) replaces its row, sits
 * under its gap, or ends the list for a new address. Nothing can be changed while one is open.
 */
export function AddressHistoryList({
  rows,
  gaps,
  editing,
  editor,
  readOnly,
  wording,
  onOpen,
  onDelete,
  deletingId,
  overlapsAt,
}: {
  rows: readonly CaseAddress[];
  gaps: readonly AddressGap[];
  editing: AddressEditing | null;
  editor: (editing: AddressEditing) => ReactNode;
  readOnly: boolean;
  wording: AddressWording;
  onOpen: (editing: AddressEditing) => void;
  onDelete: (id: number) => void;
  deletingId?: number | null;
  /** With a date ('today'): each address shows the others it overlaps. */
  overlapsAt?: string;
}) {
  const canChange = !readOnly && editing === null;
  const editingId = editing && 'id' in editing ? editing.id : null;
  const editingGap = editing && 'gap' in editing ? editing.gap.from_date : null;
  return (
    <>
      {gaps.length > 0 && (
        <Stack gap="sm" id="address-gaps" tabIndex={-1}>
          {gaps.map((g) => (
            <Stack key={`gap-${g.from_date}`} gap="xs">
              <GapRow
                gap={g}
                wording={wording}
                canFill={canChange}
                onFill={() => onOpen({ gap: g })}
              />
              {editingGap === g.from_date && editing && editor(editing)}
            </Stack>
          ))}
        </Stack>
      )}
      {rows.map((a) =>
        editingId === a.id && editing ? (
          <div key={a.id}>{editor(editing)}</div>
        ) : (
          <AddressRow
            key={a.id}
            address={a}
            overlaps={overlapsAt ? overlapsOf(a, rows, overlapsAt) : []}
            wording={wording}
            canChange={canChange}
            deleting={deletingId === a.id}
            onEdit={() => onOpen({ id: a.id })}
            onDelete={() => onDelete(a.id)}
          />
        ),
      )}
      {editing && 'fresh' in editing && editor(editing)}
      {canChange && (
        <Group>
          <Button
            variant="light"
            size={wording === 'subject' ? 'md' : undefined}
            onClick={() => onOpen({ fresh: true })}
          >
            {WORDS[wording].add}
          </Button>
        </Group>
      )}
    </>
  );
}
