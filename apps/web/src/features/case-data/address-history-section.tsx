import { addressGaps } from '@kestrel/domain';
import { Badge, Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type RefObject, useRef, useState } from 'react';
import { type CaseAddress, caseAddresses } from '../../api/case-addresses';
import { type CaseDataAudience, useDeleteCaseRow, useSaveCaseRow } from '../../api/case-data';
import {
  type AddressEditing,
  AddressEditorCard,
  AddressFields,
  type AddressForm,
  AddressHistoryList,
  addressSchema as schema,
  addressToday as today,
  addressToForm as toForm,
} from '../../components/form-kit';
import { SectionCard } from './section-card';
import { Consents, SaveRow } from './section-parts';
import type { SectionProps } from './section-props';
import { useRowForm } from './use-row-form';

function AddressEditor({
  editing,
  row,
  audience,
  save,
  onClose,
  onFailed,
  retryRef,
}: {
  editing: AddressEditing;
  row: CaseAddress | null;
  audience: CaseDataAudience;
  save: ReturnType<typeof useSaveCaseRow>;
  onClose: () => void;
  onFailed: (failed: boolean) => void;
  retryRef: RefObject<(() => void) | null>;
}) {
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
  return (
    <AddressEditorCard editing={editing} wording="staff" onSubmit={f.submit}>
      <AddressFields form={f.form} audience={audience} wording="staff" />
      {f.changed && <Consents consents={f.consents} />}
      <SaveRow disabled={!f.canSave} saving={f.saving}>
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
      </SaveRow>
    </AddressEditorCard>
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
  const [editing, setEditing] = useState<AddressEditing | null>(null);
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
  const open = (e: AddressEditing) => {
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
        <AddressHistoryList
          rows={rows}
          gaps={gaps}
          editing={editing}
          editor={(e) => (
            <AddressEditor
              key={editKey}
              editing={e}
              row={'id' in e ? (rows.find((r) => r.id === e.id) ?? null) : null}
              audience={audience}
              save={save}
              onClose={close}
              onFailed={setSaveFailed}
              retryRef={retryRef}
            />
          )}
          readOnly={readOnly}
          wording="staff"
          onOpen={open}
          onDelete={(id) => void del(id)}
          deletingId={remove.isPending ? remove.variables : null}
          overlapsAt={now}
        />
      </Stack>
    </SectionCard>
  );
}
