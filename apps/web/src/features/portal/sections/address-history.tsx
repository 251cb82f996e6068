import { type AddressGap, addressGaps, formatDate, MESSAGES } from '@kestrel/domain';
import { Alert, Badge, Button, Group, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { type DefaultValues, useForm, useWatch } from 'react-hook-form';
import { caseAddresses } from '../../../api/case-addresses';
import { SectionFailure, useDeleteCaseRow, useSaveCaseRow } from '../../../api/case-data';
import {
  ADDRESS_LABELS,
  AddressEditorCard,
  AddressFields,
  type AddressForm,
  AddressHistoryList,
  applyServerFieldErrors,
  type AddressEditing as Editing,
  parsePayload,
  addressSchema as schema,
  schemaResolver,
  addressToday as today,
  addressToForm as toForm,
} from '../../../components/form-kit';
import { clearDraft, readDraft, writeDraft } from '../drafts';
import type { PortalSectionProps } from '../section-contract';
import { formErrors, SectionShell, type SummaryError } from '../section-shell';

const DRAFT = 'address-editor';

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
  const [resetKey, setResetKey] = useState(0);
  const [gapError, setGapError] = useState(false);
  const form = useForm<AddressForm>({
    resolver: schemaResolver<AddressForm>(schema),
    defaultValues: toForm(null) as DefaultValues<AddressForm>,
    mode: 'onTouched',
  });
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
        applyServerFieldErrors(form, error.body);
        return false;
      }
      throw error;
    }
    close();
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

  const editorFor = (e: Editing) => (
    <AddressEditorCard editing={e} wording="subject" onSubmit={onSaveAddress}>
      <AddressFields form={form} audience="subject" wording="subject" resetKey={resetKey} />
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
    </AddressEditorCard>
  );

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
          <AddressHistoryList
            rows={rows}
            gaps={gaps}
            editing={editing}
            editor={editorFor}
            readOnly={readOnly}
            wording="subject"
            onOpen={(e) => open(e)}
            onDelete={(id) => void remove.mutateAsync(id).catch(() => undefined)}
            deletingId={remove.isPending ? remove.variables : null}
          />
        </Stack>
      )}
    </SectionShell>
  );
}
