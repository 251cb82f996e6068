import type { MaintenanceWindowRecordOut } from '@kestrel/domain';
import {
  Button,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { ApiFailure } from '../../../api/resource';
import { fromLocalInput, maintenanceWindows, showInstant, toLocalInput } from '../api';

type Field = 'start' | 'end' | 'warning_start' | 'reason';
type Errors = Partial<Record<Field | 'non_field_errors', string>>;

const FIELDS: Field[] = ['start', 'end', 'warning_start', 'reason'];

/** The API's field errors ({field: [messages]}) as one message per field. */
function errorsOf(e: unknown): Errors {
  if (!(e instanceof ApiFailure)) return { non_field_errors: 'The window could not be saved.' };
  const out: Errors = {};
  for (const k of [...FIELDS, 'non_field_errors' as const]) {
    const v = e.body[k];
    if (Array.isArray(v)) out[k] = v.filter((x) => typeof x === 'string').join(' ');
  }
  if (Object.keys(out).length === 0) {
    out.non_field_errors = typeof e.body.detail === 'string' ? e.body.detail : 'Not saved.';
  }
  return out;
}

interface Values {
  start: string;
  end: string;
  warning_start: string;
  reason: string;
}

function WindowForm({
  initial,
  onDone,
}: {
  initial: MaintenanceWindowRecordOut | null;
  onDone: () => void;
}) {
  const save = maintenanceWindows.useSave({ showBackendErrors: false });
  const [v, setV] = useState<Values>(() => ({
    start: initial ? toLocalInput(initial.start) : '',
    end: initial ? toLocalInput(initial.end) : '',
    warning_start: initial ? toLocalInput(initial.warning_start) : '',
    reason: initial?.reason ?? '',
  }));
  const [errors, setErrors] = useState<Errors>({});
  const set = (k: Field) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const value = e.currentTarget.value;
    setV((old) => ({ ...old, [k]: value }));
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setErrors({});
    save.mutate(
      {
        ...(initial ? { id: initial.id } : {}),
        values: {
          start: fromLocalInput(v.start),
          end: fromLocalInput(v.end),
          warning_start: fromLocalInput(v.warning_start),
          reason: v.reason,
        },
      },
      { onSuccess: onDone, onError: (err) => setErrors(errorsOf(err)) },
    );
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          type="datetime-local"
          label="Warning start"
          description="The banner warns users from this time."
          value={v.warning_start}
          onChange={set('warning_start')}
          error={errors.warning_start}
          required
        />
        <TextInput
          type="datetime-local"
          label="Start"
          value={v.start}
          onChange={set('start')}
          error={errors.start}
          required
        />
        <TextInput
          type="datetime-local"
          label="End"
          value={v.end}
          onChange={set('end')}
          error={errors.end}
          required
        />
        <TextInput
          label="Reason"
          value={v.reason}
          onChange={set('reason')}
          error={errors.reason}
          maxLength={200}
        />
        {errors.non_field_errors && (
          <Text c="red" size="sm" role="alert">
            {errors.non_field_errors}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Maintenance windows: list, add, edit, delete (the banner and down page read the next one). */
export default function OpsMaintenance() {
  const list = maintenanceWindows.useList({ ordering: '-start', page_size: 100 });
  const remove = maintenanceWindows.useDelete();
  const [editing, setEditing] = useState<MaintenanceWindowRecordOut | 'new' | null>(null);
  const [deleting, setDeleting] = useState<MaintenanceWindowRecordOut | null>(null);
  const rows = list.data?.results ?? [];
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1}>Maintenance</Title>
        <Button onClick={() => setEditing('new')}>Add maintenance window</Button>
      </Group>
      <Paper withBorder radius="lg" p="md">
        {rows.length === 0 ? (
          <Text>{list.isLoading ? 'Loading…' : 'No maintenance windows are scheduled.'}</Text>
        ) : (
          <Table>
            <Table.Caption>Maintenance windows</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Warning from</Table.Th>
                <Table.Th>Start</Table.Th>
                <Table.Th>End</Table.Th>
                <Table.Th>Reason</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((w) => (
                <Table.Tr key={w.id}>
                  <Table.Td>{showInstant(w.warning_start)}</Table.Td>
                  <Table.Td>{showInstant(w.start)}</Table.Td>
                  <Table.Td>{showInstant(w.end)}</Table.Td>
                  <Table.Td>{w.reason || '—'}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="light"
                        onClick={() => setEditing(w)}
                        aria-label={`Edit the window starting ${showInstant(w.start)}`}
                      >
                        Edit
                      </Button>
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        onClick={() => setDeleting(w)}
                        aria-label={`Delete the window starting ${showInstant(w.start)}`}
                      >
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add maintenance window' : 'Edit maintenance window'}
      >
        {editing !== null && (
          <WindowForm
            key={editing === 'new' ? 'new' : editing.id}
            initial={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        )}
      </Modal>
      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete maintenance window"
      >
        {deleting && (
          <Stack>
            <Text>
              Delete the window from {showInstant(deleting.start)} to {showInstant(deleting.end)}?
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDeleting(null)}>
                Cancel
              </Button>
              <Button
                color="red"
                loading={remove.isPending}
                onClick={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
              >
                Delete
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
