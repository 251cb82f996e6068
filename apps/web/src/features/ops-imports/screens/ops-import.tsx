import { IMPORT_FIELDS, type ImportField, type ImportMode } from '@kestrel/domain';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Progress,
  Radio,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import listTable from '../../../components/list-table.module.css';
import {
  errorLines,
  importOptions,
  invalidRowsOptions,
  previewOptions,
  reportHref,
  runImport,
  saveMapping,
  validateImport,
} from '../api';
import local from './ops-import.module.css';

/** A preview cell: its value, or a dimmed dash for an empty one (which a phone's card keeps). */
function Cell({ value }: { value: string }) {
  return value === '' ? (
    <Text span size="sm" c="dimmed" aria-label="Empty">
      —
    </Text>
  ) : (
    <span>{value}</span>
  );
}

const LABELS: Record<ImportField, string> = {
  first_name: 'First name',
  middlename: 'Middle names',
  last_name: 'Last name',
  email: 'Email',
  dob: 'Date of birth',
  phone_number: 'Phone number',
};

/** One import (issue 29): mapping and preview, validation errors, progress and the report. */
export default function OpsImport() {
  const id = Number(useParams().id);
  const client = useQueryClient();
  const imp = useQuery(importOptions(id));
  const preview = useQuery(previewOptions(id));
  const [page, setPage] = useState(1);
  const invalid = useQuery(invalidRowsOptions(id, page));
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [mode, setMode] = useState<ImportMode>('all_or_nothing');
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const d = imp.data;
  useEffect(() => {
    if (d) {
      setMapping(d.mapping);
      setMode(d.mode);
    }
  }, [d]);
  if (!d) {
    return imp.isPending ? (
      <Skeleton h={320} />
    ) : (
      <Text c="red.8">The import could not be loaded.</Text>
    );
  }
  const editable = d.state === 'uploaded' || d.state === 'validated';
  const refresh = () => client.invalidateQueries({ queryKey: ['/api/ops/imports/', id] });
  const act = async (fn: () => Promise<{ ok: boolean; data: unknown }>) => {
    setBusy(true);
    setErrors([]);
    const r = await fn();
    setBusy(false);
    if (!r.ok) setErrors(errorLines((r.data ?? {}) as Record<string, unknown>));
    await refresh();
  };
  const validate = () =>
    act(async () => {
      const saved = await saveMapping(id, { mapping, mode });
      return saved.ok ? validateImport(id) : saved;
    });
  const done = d.imported_rows;
  const target = d.valid_rows;
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        {/* a long file name breaks anywhere rather than widen a phone's page */}
        <Title order={1} style={{ overflowWrap: 'anywhere' }}>
          Import: {d.file_name}
        </Title>
        <Text c="dimmed">
          {d.customer_name} · {d.total_rows} rows · {d.state}
        </Text>
      </Stack>
      {errors.length > 0 && (
        <Alert color="red" title="Not done">
          {errors.map((e) => (
            <Text key={e} size="sm">
              {e}
            </Text>
          ))}
        </Alert>
      )}
      {editable && (
        <Paper withBorder radius="lg" p="md">
          <Stack gap="sm">
            <Title order={2} size="h3">
              Column mapping
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              {IMPORT_FIELDS.map((f) => (
                <Select
                  key={f}
                  label={LABELS[f]}
                  clearable
                  data={d.headers}
                  value={mapping[f] ?? null}
                  onChange={(v) => {
                    const next = { ...mapping };
                    if (v) next[f] = v;
                    else delete next[f];
                    setMapping(next);
                  }}
                />
              ))}
            </SimpleGrid>
            <Radio.Group
              label="Mode"
              value={mode}
              onChange={(v) => setMode(v === 'valid_rows' ? 'valid_rows' : 'all_or_nothing')}
            >
              <Group mt={4}>
                <Radio value="all_or_nothing" label="All or nothing" />
                <Radio value="valid_rows" label="Import the valid rows only" />
              </Group>
            </Radio.Group>
            <Group>
              <Button onClick={() => void validate()} loading={busy}>
                Validate
              </Button>
              {d.state === 'validated' && (
                <Button onClick={() => void act(() => runImport(id))} loading={busy}>
                  Import{' '}
                  {mode === 'valid_rows' ? `${d.valid_rows} valid rows` : `${d.valid_rows} rows`}
                </Button>
              )}
            </Group>
          </Stack>
        </Paper>
      )}
      {preview.data && (
        <Stack gap="xs">
          <Title order={2} size="h3">
            Preview
          </Title>
          {/* cards on a phone (each row's cells under the file's headers); from a tablet up a
              table that scrolls sideways in its own box when the file is wide */}
          <section
            className={local.wide}
            aria-label="Preview of the first rows"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that may scroll sideways takes the keyboard's focus (axe scrollable-region-focusable)
            tabIndex={0}
          >
            <Table
              striped
              aria-label="Preview"
              className={listTable.table}
              style={{ '--list-min-width': '0px' }}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Row</Table.Th>
                  {preview.data.headers.map((h) => (
                    <Table.Th key={h}>{h}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview.data.rows.map((r) => (
                  <Table.Tr key={r.row_number}>
                    <Table.Td data-label="Row">
                      <span className={local.rowNumber}>{r.row_number}</span>
                    </Table.Td>
                    {preview.data?.headers.map((h, i) => (
                      <Table.Td key={h} data-label={h}>
                        <Cell value={r.cells[i] ?? ''} />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </section>
        </Stack>
      )}
      {d.state !== 'uploaded' && (
        <Paper withBorder radius="lg" p="md">
          <Stack gap="xs">
            <Text>
              {d.valid_rows} valid, {d.invalid_rows} invalid, {done} imported
            </Text>
            {(d.state === 'running' || d.state === 'completed') && target > 0 && (
              <Progress
                value={Math.min(100, (100 * done) / Math.max(1, target))}
                aria-label="Import progress"
              />
            )}
            {d.error && <Text c="red.8">{d.error}</Text>}
            {(d.state === 'completed' || d.state === 'failed') && (
              <Anchor href={reportHref(id)}>Download the result report (CSV)</Anchor>
            )}
          </Stack>
        </Paper>
      )}
      {d.invalid_rows > 0 && invalid.data && (
        <Stack gap="xs">
          <Title order={2} size="h3">
            Rows with errors
          </Title>
          {/* cards on a phone, as the preview */}
          <Table
            striped
            aria-label="Rows with errors"
            className={listTable.table}
            style={{ '--list-min-width': '0px' }}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Row</Table.Th>
                <Table.Th>Field</Table.Th>
                <Table.Th>Error</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invalid.data.results.flatMap((r) =>
                Object.entries(r.errors).map(([field, msgs]) => (
                  <Table.Tr key={`${r.row_number}-${field}`}>
                    <Table.Td data-label="Row">
                      <span className={local.rowNumber}>{r.row_number}</span>
                    </Table.Td>
                    <Table.Td data-label="Field">{field}</Table.Td>
                    <Table.Td data-label="Error">{msgs.join(' ')}</Table.Td>
                  </Table.Tr>
                )),
              )}
            </Table.Tbody>
          </Table>
          <Group>
            <Button variant="default" disabled={page === 1} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <Button
              variant="default"
              disabled={!invalid.data.next}
              onClick={() => setPage(page + 1)}
            >
              Next
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
