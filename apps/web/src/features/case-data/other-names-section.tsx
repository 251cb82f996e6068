import { caseOtherNameIn, formatDate, isoDate, nameForDbs } from '@kestrel/domain';
import { Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type RefObject, useRef, useState } from 'react';
import { useDeleteCaseRow, useSaveCaseRow } from '../../api/case-data';
import { type CaseOtherName, caseOtherNames } from '../../api/case-other-names';
import { DateField, DbsTextField, text } from '../../components/form-kit';
import { SectionCard } from './section-card';
import { Consents, SaveRow } from './section-parts';
import type { SectionProps } from './section-props';
import { useRowForm } from './use-row-form';

export interface OtherNameForm {
  forename: string;
  forename_dbs: string;
  middlename: string;
  middlename_dbs: string;
  surname: string;
  surname_dbs: string;
  from_date: string;
  to_date: string;
}

const toForm = (r: CaseOtherName | null): OtherNameForm => ({
  forename: text(r?.forename),
  forename_dbs: text(r?.forename_dbs),
  middlename: text(r?.middlename),
  middlename_dbs: text(r?.middlename_dbs),
  surname: text(r?.surname),
  surname_dbs: text(r?.surname_dbs),
  from_date: text(r?.from_date),
  to_date: text(r?.to_date),
});

const schema = () => caseOtherNameIn(isoDate(new Date()));
const fullName = (r: CaseOtherName) =>
  [r.forename, r.middlename, r.surname].filter(Boolean).join(' ');

function OtherNameEditor({
  row,
  save,
  onClose,
  onFailed,
  retryRef,
}: {
  row: CaseOtherName | null;
  save: ReturnType<typeof useSaveCaseRow>;
  onClose: () => void;
  onFailed: (failed: boolean) => void;
  retryRef: RefObject<(() => void) | null>;
}) {
  const f = useRowForm<OtherNameForm>({
    schema,
    initial: toForm(row),
    id: row?.id,
    save,
    onSaved: onClose,
    onFailed,
  });
  const { form } = f;
  retryRef.current = () => void f.submit();
  return (
    <Paper withBorder radius="md" p="md">
      <form onSubmit={f.submit} noValidate aria-label={row ? 'Edit other name' : 'Add other name'}>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <DbsTextField form={form} name="forename" label="Forename" kind="name" required />
            <DbsTextField form={form} name="middlename" label="Middle name" kind="name" />
            <DbsTextField form={form} name="surname" label="Surname" kind="name" required />
            <span />
            <DateField control={form.control} name="from_date" label="From" />
            <DateField control={form.control} name="to_date" label="To" />
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

export function OtherNamesSection({ caseId, audience, readOnly }: SectionProps) {
  const query = useQuery(caseOtherNames.options(caseId, audience));
  const save = useSaveCaseRow(caseOtherNames, caseId, audience);
  const remove = useDeleteCaseRow(caseOtherNames, caseId, audience);
  // null: nothing open; 'new': the add form; a number: that row's edit form.
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [saveFailed, setSaveFailed] = useState(false);
  const [deleteFailed, setDeleteFailed] = useState<number | null>(null);
  const retryRef = useRef<(() => void) | null>(null);
  const close = () => {
    setEditing(null);
    setSaveFailed(false);
  };
  const rows = query.data?.results ?? [];
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
    // The open form keeps what was typed; submitting it again retries the save.
    else retryRef.current?.();
  };
  return (
    <SectionCard title="Other Names" loading={query.isPending} failed={failed} onRetry={retry}>
      <Stack gap="sm">
        {rows.length === 0 && editing !== 'new' && (
          <Text size="sm" c="dimmed">
            No other names.
          </Text>
        )}
        {rows.map((r) =>
          editing === r.id ? (
            <OtherNameEditor
              key={r.id}
              row={r}
              save={save}
              onClose={close}
              onFailed={setSaveFailed}
              retryRef={retryRef}
            />
          ) : (
            <Paper key={r.id} withBorder radius="md" p="sm" data-testid="other-name-row">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Stack gap={2} style={{ minWidth: 0, flex: '1 1 14rem' }}>
                  <Text fw={600}>{fullName(r)}</Text>
                  {nameForDbs(r) && (
                    <Text size="sm" c="dimmed">
                      For DBS: {nameForDbs(r)}
                    </Text>
                  )}
                  <Text size="sm" c="dimmed">
                    {formatDate(r.from_date)} to {formatDate(r.to_date)}
                  </Text>
                </Stack>
                {!readOnly && (
                  <Group gap="xs">
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => setEditing(r.id)}
                      aria-label={`Edit ${fullName(r)}`}
                    >
                      Edit
                    </Button>
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      loading={remove.isPending && remove.variables === r.id}
                      onClick={() => void del(r.id)}
                      aria-label={`Delete ${fullName(r)}`}
                    >
                      Delete
                    </Button>
                  </Group>
                )}
              </Group>
            </Paper>
          ),
        )}
        {editing === 'new' && (
          <OtherNameEditor
            row={null}
            save={save}
            onClose={close}
            onFailed={setSaveFailed}
            retryRef={retryRef}
          />
        )}
        {!readOnly && editing === null && (
          <Group>
            <Button variant="light" onClick={() => setEditing('new')}>
              Add other name
            </Button>
          </Group>
        )}
      </Stack>
    </SectionCard>
  );
}
