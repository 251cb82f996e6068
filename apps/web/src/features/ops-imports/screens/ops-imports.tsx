import type { ImportMode } from '@kestrel/domain';
import {
  Alert,
  Anchor,
  Button,
  FileInput,
  Group,
  NumberInput,
  Paper,
  Radio,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import classes from '../../../components/list-table.module.css';
import { href } from '../../../config/paths';
import { customerChoicesOptions, errorLines, importsOptions, uploadImport } from '../api';

function NewImport() {
  const customers = useQuery(customerChoicesOptions());
  const navigate = useNavigate();
  const client = useQueryClient();
  const [customer, setCustomer] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [process, setProcess] = useState<string | number>('');
  const [mode, setMode] = useState<ImportMode>('all_or_nothing');
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!customer || !file) {
      setErrors(['Choose a customer and a file.']);
      return;
    }
    setBusy(true);
    const form = new FormData();
    form.set('customer', customer);
    if (process !== '') form.set('process', String(process));
    form.set('mode', mode);
    form.set('file', file, file.name);
    const r = await uploadImport(form);
    setBusy(false);
    if (!r.ok) {
      setErrors(r.status === 413 ? ['The file is too large.'] : errorLines(r.data));
      return;
    }
    await client.invalidateQueries({ queryKey: ['/api/ops/imports/'] });
    navigate(href('ops:import', { id: r.data.id }));
  };
  return (
    <Paper withBorder radius="lg" p="md">
      <Stack gap="sm">
        <Title order={2} size="h3">
          New import
        </Title>
        <Select
          label="Customer"
          required
          searchable
          data={(customers.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
          value={customer}
          onChange={setCustomer}
        />
        <FileInput
          label="File (CSV or XLSX)"
          required
          accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          value={file}
          onChange={setFile}
        />
        <NumberInput
          label="Process (optional: opens a case for each subject)"
          min={1}
          value={process}
          onChange={setProcess}
        />
        <Radio.Group
          label="Mode"
          value={mode}
          onChange={(v) => setMode(v === 'valid_rows' ? 'valid_rows' : 'all_or_nothing')}
        >
          <Stack gap={6} mt={4}>
            <Radio value="all_or_nothing" label="All or nothing" />
            <Radio value="valid_rows" label="Import the valid rows only" />
          </Stack>
        </Radio.Group>
        {errors.length > 0 && (
          <Alert color="red" title="The import could not start">
            {errors.map((e) => (
              <Text key={e} size="sm">
                {e}
              </Text>
            ))}
          </Alert>
        )}
        <Group>
          <Button onClick={() => void submit()} loading={busy}>
            Upload
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Imports of subjects (issue 29): the list, newest first, and a new import. */
export default function OpsImports() {
  const list = useQuery(importsOptions(1));
  const rows = list.data?.results ?? [];
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Imports</Title>
        <Text c="dimmed">Subjects imported from CSV or XLSX files, for any customer.</Text>
      </Stack>
      <NewImport />
      {list.isPending ? (
        <Skeleton h={160} radius="lg" />
      ) : rows.length === 0 ? (
        <Text>No imports yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={0}>
          <Table
            striped
            aria-label="Imports"
            className={classes.table}
            style={{ '--list-min-width': '720px' }}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>File</Table.Th>
                <Table.Th>Customer</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Rows</Table.Th>
                <Table.Th>Imported</Table.Th>
                <Table.Th>Invalid</Table.Th>
                <Table.Th>Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td data-label="File">
                    <Anchor component={Link} to={href('ops:import', { id: r.id })}>
                      {r.file_name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td data-label="Customer">{r.customer_name}</Table.Td>
                  <Table.Td data-label="State">{r.state}</Table.Td>
                  <Table.Td data-label="Rows">{r.total_rows}</Table.Td>
                  <Table.Td data-label="Imported">{r.imported_rows}</Table.Td>
                  <Table.Td data-label="Invalid">{r.invalid_rows}</Table.Td>
                  <Table.Td data-label="Created">
                    {new Date(r.created_at).toLocaleString('en-GB')}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
