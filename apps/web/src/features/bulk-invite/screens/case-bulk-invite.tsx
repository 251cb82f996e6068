import type { BulkInvitePreviewOut, BulkInviteResultOut, BulkInviteRowOut } from '@kestrel/domain';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  FileInput,
  Group,
  List,
  Paper,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { failureMessage } from '../../../api/messages';
import { processes as processList } from '../../../api/processes';
import { href } from '../../../config/paths';
import { confirmBulkInvite, fieldMessage, previewBulkInvite } from '../api';

const TEMPLATE =
  'First name,Last name,Email,Mobile\r\nAda,Lovelace,ada@example.com,07911 123456\r\n';
const TEMPLATE_HREF = `data:text/csv;charset=utf-8,${encodeURIComponent(TEMPLATE)}`;

const FIELD_WORDS: Record<string, string> = {
  first_name: 'First name',
  middlename: 'Middle name',
  last_name: 'Last name',
  email: 'Email',
  dob: 'Date of birth',
  phone_number: 'Mobile',
  non_field_errors: 'Row',
};

/** A row's errors in words: `Email: Enter a valid email address.` */
export function rowErrorWords(errors: BulkInviteRowOut['errors']): string[] {
  if (!errors) return [];
  return Object.entries(errors).flatMap(([field, messages]) =>
    messages.map((m) => `${FIELD_WORDS[field] ?? field}: ${m}`),
  );
}

function RowStatus({ row }: { row: BulkInviteRowOut }) {
  if (row.errors)
    return (
      <Badge color="red" variant="light">
        Not invited
      </Badge>
    );
  if (row.subject_id !== null)
    return (
      <Badge color="blue" variant="light">
        Existing subject
      </Badge>
    );
  return (
    <Badge color="green" variant="light">
      New subject
    </Badge>
  );
}

function PreviewTable({ rows }: { rows: BulkInviteRowOut[] }) {
  return (
    // wider than a phone: the viewport takes the keyboard's focus and has a name (WCAG 2.1.1)
    <ScrollArea viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Rows of the file' }}>
      <Table striped miw={560} aria-label="Rows of the file">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Row</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.row_number} data-row={row.row_number}>
              <Table.Td>{row.row_number}</Table.Td>
              <Table.Td>{`${row.first_name} ${row.last_name}`.trim() || '—'}</Table.Td>
              <Table.Td>{row.email || '—'}</Table.Td>
              <Table.Td>
                <Stack gap={4}>
                  <RowStatus row={row} />
                  {rowErrorWords(row.errors).map((m) => (
                    <Text key={m} size="sm" c="var(--mantine-color-red-text)">
                      {m}
                    </Text>
                  ))}
                </Stack>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

function Result({ result, onAgain }: { result: BulkInviteResultOut; onAgain: () => void }) {
  const n = result.created.length;
  return (
    <Stack>
      <Alert color="green" title={n === 1 ? '1 case opened' : `${n} cases opened`}>
        Each person has been sent an invitation to complete their checks.
      </Alert>
      <List>
        {result.created.map((c) => (
          <List.Item key={c.case_id}>
            <Anchor component={Link} to={href('case-detail', { id: c.case_id })}>
              Case {c.case_id}
            </Anchor>{' '}
            (row {c.row_number})
          </List.Item>
        ))}
      </List>
      {result.skipped.length > 0 && (
        <>
          <Title order={3}>Rows not invited</Title>
          <PreviewTable rows={result.skipped} />
        </>
      )}
      <Group>
        <Button variant="default" onClick={onAgain}>
          Invite more people
        </Button>
        <Button component={Link} to={href('cases')}>
          Go to cases
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * Bulk invite (issue 33): choose a process and a CSV of people; the preview shows each row's
 * errors; confirming opens a case for each good row and leaves the others out.
 */
export default function CaseBulkInvite() {
  const queryClient = useQueryClient();
  const processes = useQuery({
    ...processList.listOptions({ is_active: true, page_size: 100 }),
    select: (page) => page.results,
  });
  const [process, setProcess] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [csv, setCsv] = useState('');
  const [errors, setErrors] = useState<{ process?: string; csv?: string; form?: string }>({});
  const [preview, setPreview] = useState<BulkInvitePreviewOut | null>(null);
  const [result, setResult] = useState<BulkInviteResultOut | null>(null);
  const [busy, setBusy] = useState(false);

  const reset = () => {
    setPreview(null);
    setResult(null);
    setErrors({});
  };

  const failed = (status: number, body: Readonly<Record<string, unknown>>) => {
    if (status === 400) {
      setErrors({
        process: fieldMessage(body, 'process') ?? undefined,
        csv: fieldMessage(body, 'csv') ?? undefined,
        form: fieldMessage(body, 'non_field_errors') ?? undefined,
      });
      return;
    }
    setErrors({
      form:
        failureMessage({ status, data: body }, { showBackendErrors: true }) ??
        'Something went wrong. Try again.',
    });
  };

  const check = async () => {
    const next: typeof errors = {};
    if (!process) next.process = 'Choose a process.';
    if (!file) next.csv = 'Choose a CSV file.';
    setErrors(next);
    if (!process || !file) return;
    setBusy(true);
    const text = await file.text();
    setCsv(text);
    const r = await previewBulkInvite(Number(process), text);
    setBusy(false);
    if (r.ok) setPreview(r.data);
    else {
      setPreview(null);
      failed(r.status, r.data);
    }
  };

  const confirm = async () => {
    if (!process || !preview) return;
    setBusy(true);
    const r = await confirmBulkInvite(Number(process), csv);
    setBusy(false);
    if (r.ok) {
      setResult(r.data);
      setPreview(null);
      await queryClient.invalidateQueries();
    } else failed(r.status, r.data);
  };

  if (result) {
    return (
      <Stack>
        <Title order={1}>Bulk invite</Title>
        <Result
          result={result}
          onAgain={() => {
            reset();
            setFile(null);
          }}
        />
      </Stack>
    );
  }

  const good = preview?.valid_rows ?? 0;
  return (
    <Stack>
      <Title order={1}>Bulk invite</Title>
      <Text>
        Upload a CSV file of people to open a case for each of them under one process and send them
        their invitation. The first row names the columns: first name, last name and email are
        needed; middle name, date of birth and mobile may be given. You see every row before anyone
        is invited; rows with errors are left out.
      </Text>
      <Anchor href={TEMPLATE_HREF} download="bulk-invite-template.csv">
        Download a template
      </Anchor>
      <Paper withBorder p="md">
        <Stack>
          <Select
            label="Process"
            placeholder="Choose a process"
            data={(processes.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
            value={process}
            onChange={(v) => {
              setProcess(v);
              reset();
            }}
            error={errors.process}
            required
            searchable
          />
          <FileInput
            label="CSV file"
            placeholder="Choose a file"
            accept=".csv,text/csv"
            value={file}
            onChange={(f) => {
              setFile(f);
              reset();
            }}
            error={errors.csv}
            required
          />
          {errors.form && <Alert color="red">{errors.form}</Alert>}
          <Group>
            <Button
              onClick={check}
              loading={busy && !preview}
              variant={preview ? 'default' : 'filled'}
            >
              Check the file
            </Button>
          </Group>
        </Stack>
      </Paper>
      {preview && (
        <Stack>
          <Title order={2}>Preview</Title>
          <Text role="status">
            {`${good} ${good === 1 ? 'person' : 'people'} ready to invite`}
            {preview.invalid_rows > 0 &&
              `, ${preview.invalid_rows} ${preview.invalid_rows === 1 ? 'row' : 'rows'} with errors (left out)`}
            .
          </Text>
          <PreviewTable rows={preview.rows} />
          <Group>
            <Button onClick={confirm} loading={busy} disabled={good === 0}>
              {good === 1 ? 'Invite 1 person' : `Invite ${good} people`}
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
