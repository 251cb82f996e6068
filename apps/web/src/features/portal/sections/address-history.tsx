import { type AddressGap, addressGaps, countryName, formatDate, MESSAGES } from '@kestrel/domain';
import {
  Alert,
  Badge,
  Box,
  Button,
  Checkbox,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { type DefaultValues, useForm, useWatch } from 'react-hook-form';
import { caseAddresses } from '../../../api/case-addresses';
import { SectionFailure, useDeleteCaseRow, useSaveCaseRow } from '../../../api/case-data';
import {
  type AddressForm,
  addressLine as oneLine,
  addressSchema as schema,
  addressToday as today,
  addressToForm as toForm,
} from '../../case-data/address-form';
import { AddressLookup } from '../../case-data/address-lookup';
import {
  applyFieldErrors,
  CountryField,
  DateField,
  DbsTextField,
  LOCKED_REASON,
  parsePayload,
  schemaResolver,
} from '../../case-data/form-kit';
import { clearDraft, readDraft, writeDraft } from '../drafts';
import type { PortalSectionProps } from '../section-contract';
import { formErrors, SectionShell, type SummaryError } from '../section-shell';

const ADDRESS_LABELS: Record<string, string> = {
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

const DRAFT = 'address-editor';

/** What the editor is for: an address, a gap to fill, or a new address. */
type Editing = { id: number } | { gap: AddressGap } | { fresh: true };
interface EditorDraft {
  editing: Editing;
  values: AddressForm;
}

/**
 * Address history (spec points 5 and 9): the addresses of the last 5 years, newest first, the
 * gaps ('Missing address information') each filled through the postcode lookup or by hand.
 * Continue needs the 5 years covered; an address being typed is saved first (or kept on Back).
 */
export default function AddressHistorySection({ caseId, readOnly, complete }: PortalSectionProps) {
  const query = useQuery(caseAddresses.options(caseId, 'subject'));
  const save = useSaveCaseRow(caseAddresses, caseId, 'subject');
  const remove = useDeleteCaseRow(caseAddresses, caseId, 'subject');
  const [editing, setEditing] = useState<Editing | null>(null);
  const [lookupKey, setLookupKey] = useState(0);
  const [resetKey, setResetKey] = useState(0);
  const [gapError, setGapError] = useState(false);
  const form = useForm<AddressForm>({
    resolver: schemaResolver<AddressForm>(schema),
    defaultValues: toForm(null) as DefaultValues<AddressForm>,
    mode: 'onTouched',
  });
  const current = useWatch({ control: form.control, name: 'current' });
  const watched = useWatch({ control: form.control });
  const now = today();
  const rows = [...(query.data?.results ?? [])].sort((a, b) =>
    (b.from_date ?? '').localeCompare(a.from_date ?? ''),
  );
  const gaps: AddressGap[] =
    query.data?.gaps ??
    (query.data
      ? addressGaps(
          rows.map((r) => ({ ...r, from_date: r.from_date ?? null })),
          now,
        )
      : []);

  const open = (e: Editing, values?: AddressForm) => {
    const row = 'id' in e ? rows.find((r) => r.id === e.id) : undefined;
    const initial =
      values ??
      ('gap' in e
        ? toForm({ from_date: e.gap.from_date, to_date: e.gap.to_date })
        : toForm(row ?? { current: rows.length === 0 }));
    form.reset(initial);
    setEditing(e);
    setResetKey((k) => k + 1);
    setGapError(false);
  };
  const close = () => {
    setEditing(null);
    clearDraft(caseId, DRAFT);
  };

  // Once loaded: an address left half typed comes back; with no address yet, the editor opens.
  const started = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the list first loads
  useEffect(() => {
    if (!query.data || started.current || readOnly) return;
    started.current = true;
    const draft = readDraft<EditorDraft>(caseId, DRAFT);
    if (draft?.editing && draft.values) open(draft.editing, { ...toForm(null), ...draft.values });
    else if (query.data.results.length === 0) open({ fresh: true });
  }, [query.data]);

  // What is typed in the editor is kept until it is saved.
  useEffect(() => {
    if (editing && form.formState.isDirty) {
      writeDraft(caseId, DRAFT, { editing, values: watched });
    }
  }, [watched, editing, caseId, form.formState.isDirty]);

  /** Saves the address being edited: true when saved (or nothing to save). */
  const saveEditor = async (): Promise<boolean> => {
    if (!editing) return true;
    const valid = await form.trigger();
    if (!valid) return false;
    const values = form.getValues();
    try {
      await save.mutateAsync({
        id: 'id' in editing ? editing.id : undefined,
        values: parsePayload(schema(), values, Object.keys(values)),
      });
    } catch (error) {
      if (error instanceof SectionFailure && error.status === 400) {
        applyFieldErrors(form, error.body);
        return false;
      }
      throw error;
    }
    close();
    setLookupKey((k) => k + 1);
    return true;
  };

  const onSaveAddress = form.handleSubmit(async () => {
    if (await saveEditor()) {
      const count = (query.data?.results.length ?? 0) + 1;
      await complete(`address-history/${count}`).catch(() => undefined);
    }
  });

  const onContinue = async () => {
    if (editing && form.formState.isDirty && !(await saveEditor())) return;
    if (editing && !form.formState.isDirty) close();
    const latest = await query.refetch();
    const left =
      latest.data?.gaps ??
      addressGaps(
        (latest.data?.results ?? []).map((r) => ({ ...r, from_date: r.from_date ?? null })),
        now,
      );
    if (left.length > 0) {
      setGapError(true);
      return;
    }
    await complete();
  };

  const onBack = async () => {
    if (!editing || !form.formState.isDirty) return;
    if (await form.trigger()) await saveEditor().catch(() => false);
  };

  const errors: SummaryError[] = [
    ...(editing ? formErrors(form.formState.errors, ADDRESS_LABELS) : []),
    ...(gapError && gaps.length > 0
      ? [
          {
            field: 'address-gaps',
            message: `Your addresses must cover the last 5 years: ${MESSAGES.missingAddressInformation.toLowerCase()} for ${gaps
              .map((g) => `${formatDate(g.from_date)} to ${formatDate(g.to_date)}`)
              .join(', ')}`,
          },
        ]
      : []),
  ];

  const editorFor = (e: Editing) => {
    const title =
      'id' in e ? 'Change this address' : 'gap' in e ? 'Add the missing address' : 'Add an address';
    return (
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} data-testid="address-editor">
        <form onSubmit={onSaveAddress} noValidate aria-label={title}>
          <Stack gap="md">
            <Text fw={700} component="h2" size="lg">
              {title}
            </Text>
            <AddressLookup
              key={lookupKey}
              audience="subject"
              onChoose={(a, raw) => {
                const opts = { shouldDirty: true, shouldValidate: true } as const;
                form.setValue('country', a.country, opts);
                form.setValue('line_one', a.line_one, opts);
                form.setValue('line_two', a.line_two, opts);
                form.setValue('town', a.town, opts);
                form.setValue('postcode', a.postcode, opts);
                form.setValue('source', 'OS', opts);
                form.setValue('metadata', { ...raw }, opts);
              }}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <DbsTextField
                form={form}
                name="line_one"
                label="Address line 1"
                kind="addressLine"
                required
              />
              <DbsTextField form={form} name="line_two" label="Address line 2" kind="addressLine" />
              <DbsTextField form={form} name="town" label="Town" kind="place" required />
              <DbsTextField
                form={form}
                name="postcode"
                label="Postcode"
                transform={(v) => v.toUpperCase()}
              />
              <CountryField form={form} name="country" label="Country" dbs />
            </SimpleGrid>
            <Checkbox
              size="md"
              label="I live here now"
              error={form.formState.errors.current?.message}
              {...form.register('current', { onChange: () => void form.trigger('to_date') })}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <Box data-field="from_date">
                <DateField
                  control={form.control}
                  name="from_date"
                  label="Lived here from"
                  resetKey={resetKey}
                />
              </Box>
              {!current && (
                <Box data-field="to_date">
                  <DateField
                    control={form.control}
                    name="to_date"
                    label="Lived here until"
                    resetKey={resetKey}
                  />
                </Box>
              )}
            </SimpleGrid>
            <Group gap="sm" justify="flex-end" wrap="wrap">
              {rows.length > 0 && (
                <Button variant="default" size="md" onClick={close}>
                  Cancel
                </Button>
              )}
              <Button type="submit" size="md" variant="light" loading={save.isPending}>
                Save address
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    );
  };

  const editingId = editing && 'id' in editing ? editing.id : null;
  const editingGap = editing && 'gap' in editing ? editing.gap.from_date : null;

  return (
    <SectionShell
      form={false}
      intro="Tell us every address you have lived at in the last 5 years, starting with where you live now."
      loading={query.isPending}
      errors={errors}
      saving={save.isPending || remove.isPending}
      onContinue={onContinue}
      onBack={onBack}
    >
      {query.isError && !query.data ? (
        <Alert color="red" variant="light" role="alert" data-testid="section-error">
          We could not load your addresses. Please try again.
        </Alert>
      ) : (
        <Stack gap="sm">
          <Group gap="xs">
            <Badge variant="light" size="lg" color={gaps.length ? 'yellow' : 'teal'}>
              {gaps.length
                ? `${gaps.length} ${gaps.length === 1 ? 'gap' : 'gaps'} to fill`
                : '5 years covered'}
            </Badge>
          </Group>
          <Stack gap="sm" id="address-gaps" tabIndex={-1}>
            {gaps.map((g) => (
              <Stack key={`gap-${g.from_date}`} gap="xs">
                <Alert color="yellow" variant="light" p="sm" data-testid="address-gap">
                  <Group justify="space-between" wrap="wrap" gap="xs">
                    <Stack gap={0}>
                      <Text fw={600} size="sm">
                        {g.message || MESSAGES.missingAddressInformation}
                      </Text>
                      <Text size="sm">
                        {formatDate(g.from_date)} to {formatDate(g.to_date)}
                      </Text>
                    </Stack>
                    {!readOnly && editing === null && (
                      <Button
                        size="md"
                        variant="white"
                        color="dark"
                        onClick={() => open({ gap: g })}
                      >
                        Add an address for this time
                      </Button>
                    )}
                  </Group>
                </Alert>
                {editingGap === g.from_date && editing && editorFor(editing)}
              </Stack>
            ))}
          </Stack>
          {rows.map((a) =>
            editingId === a.id && editing ? (
              <div key={a.id}>{editorFor(editing)}</div>
            ) : (
              <Paper key={a.id} withBorder radius="md" p="sm" data-testid="address-row">
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
                      {formatDate(a.from_date)} to{' '}
                      {a.current || !a.to_date ? 'now' : formatDate(a.to_date)}
                    </Text>
                  </Stack>
                  {a.source === 'idsp' ? (
                    <Text size="sm" c="dimmed" maw={280}>
                      {LOCKED_REASON}
                    </Text>
                  ) : (
                    !readOnly &&
                    editing === null && (
                      <Group gap="xs">
                        <Button
                          size="md"
                          variant="default"
                          onClick={() => open({ id: a.id })}
                          aria-label={`Change ${a.line_one}`}
                        >
                          Change
                        </Button>
                        <Button
                          size="md"
                          variant="subtle"
                          color="red"
                          loading={remove.isPending && remove.variables === a.id}
                          onClick={() => void remove.mutateAsync(a.id).catch(() => undefined)}
                          aria-label={`Remove ${a.line_one}`}
                        >
                          Remove
                        </Button>
                      </Group>
                    )
                  )}
                </Group>
              </Paper>
            ),
          )}
          {editing && 'fresh' in editing && editorFor(editing)}
          {!readOnly && editing === null && (
            <Group>
              <Button variant="light" size="md" onClick={() => open({ fresh: true })}>
                Add another address
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </SectionShell>
  );
}
