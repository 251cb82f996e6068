import { formatDate } from '@kestrel/domain';
import {
  Badge,
  Button,
  Group,
  Paper,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import classes from '../../../components/list-table.module.css';
import { type RegisterEntry, registerOptions } from '../api';
import own from '../screens/licences.module.css';

const HEADERS = ['Decision', 'Name', 'Date of birth', 'Licence', 'Licence type', 'Reason', 'Date'];
const COLOR: Record<RegisterEntry['kind'], string> = {
  refusal: 'orange',
  suspension: 'yellow',
  revocation: 'red',
};

/**
 * The council's register of refusals, suspensions and revocations (issue 32: the purpose of the
 * national register, NR3S), searched by name, date of birth or licence number (the search in the
 * address: `register_q`, `register_dob`); the same entries show on a new application of the
 * person.
 */
export function RegisterSearch() {
  const [params, setParams] = useSearchParams();
  const askedQ = params.get('register_q');
  const askedDob = params.get('register_dob') ?? '';
  const asked = askedQ !== null || askedDob !== '' ? { q: askedQ ?? '', dob: askedDob } : null;
  const [q, setQ] = useState(askedQ ?? '');
  const [dob, setDob] = useState(askedDob);
  const query = useQuery({
    ...registerOptions({ q: asked?.q || undefined, dob: asked?.dob || undefined }),
    enabled: asked !== null,
  });
  // the search in the address (kept on a reload, and by Back)
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set('register_q', q.trim());
        if (dob) next.set('register_dob', dob);
        else next.delete('register_dob');
        return next;
      },
      { replace: true },
    );
  };
  const rows = query.data?.results ?? [];
  return (
    <Paper withBorder radius="lg" p="md" data-testid="licence-register">
      <Stack gap="sm">
        <Stack gap={4}>
          <Title order={2} size="h3">
            Register of refusals, suspensions and revocations
          </Title>
          <Text size="sm" c="dimmed">
            Your council's decisions against applicants and licence holders. The same entries show
            on a new application from the same person.
          </Text>
        </Stack>
        <form onSubmit={submit} aria-label="Search the register">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" style={{ alignItems: 'end' }}>
            <TextInput
              size="md"
              label="Name or licence number"
              value={q}
              onChange={(e) => setQ(e.currentTarget.value)}
            />
            <TextInput
              size="md"
              type="date"
              label="Date of birth"
              value={dob}
              onChange={(e) => setDob(e.currentTarget.value)}
            />
            <Group>
              <Button type="submit" size="md" mih={44} loading={query.isFetching}>
                Search the register
              </Button>
            </Group>
          </SimpleGrid>
        </form>
        {asked !== null && query.isError && (
          <Text role="alert" c="red.8">
            The register could not be searched. Try again.
          </Text>
        )}
        {asked !== null && query.isSuccess && rows.length === 0 && (
          <Text data-testid="register-empty">Nothing on the register for this search.</Text>
        )}
        {rows.length > 0 && (
          <ScrollArea
            viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Register entries' }}
          >
            <Table
              verticalSpacing="sm"
              horizontalSpacing="md"
              className={classes.table}
              style={{ '--list-min-width': '900px' }}
            >
              <Table.Caption className={own.caption}>
                {rows.length === 1 ? '1 entry' : `${query.data?.count ?? rows.length} entries`},
                newest first
              </Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  {HEADERS.map((h) => (
                    <Table.Th key={h}>{h}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr
                    key={`${r.kind}-${r.application_id ?? ''}-${r.licence_id ?? ''}-${r.date}`}
                    data-testid="register-entry"
                  >
                    <Table.Td data-label="Decision">
                      <Badge
                        color={COLOR[r.kind]}
                        variant="light"
                        style={{ flexShrink: 0, overflow: 'visible', minWidth: 'max-content' }}
                        styles={{ label: { overflow: 'visible', textOverflow: 'clip' } }}
                      >
                        {r.kind_label}
                      </Badge>
                    </Table.Td>
                    <Table.Td data-label="Name">{r.name}</Table.Td>
                    <Table.Td data-label="Date of birth" style={{ whiteSpace: 'nowrap' }}>
                      {r.dob ? formatDate(r.dob) : '—'}
                    </Table.Td>
                    <Table.Td data-label="Licence">{r.licence_number ?? '—'}</Table.Td>
                    <Table.Td data-label="Licence type">{r.definition_name}</Table.Td>
                    <Table.Td data-label="Reason" style={{ overflowWrap: 'anywhere' }}>
                      {r.reason}
                    </Table.Td>
                    <Table.Td data-label="Date" style={{ whiteSpace: 'nowrap' }}>
                      {formatDate(r.date)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </Stack>
    </Paper>
  );
}
