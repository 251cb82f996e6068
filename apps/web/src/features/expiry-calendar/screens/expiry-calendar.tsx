import {
  EXPIRY_KIND_LABELS,
  EXPIRY_KINDS,
  EXPIRY_WINDOW_DAYS,
  EXPIRY_WINDOWS,
  type ExpiryItemOut,
  type ExpiryKind,
  formatDate,
} from '@kestrel/domain';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  ScrollArea,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { href } from '../../../config/paths';
import { type ExpiryFilters, expiryOptions, exportHref } from '../api';

const WINDOWS = EXPIRY_WINDOWS.map((w) => ({ value: String(w.days), label: w.label }));

const isKind = (v: string): v is ExpiryKind => (EXPIRY_KINDS as readonly string[]).includes(v);

/** The days left in words, coloured by how soon. */
function DaysLeft({ days }: { days: number }) {
  const color = days <= 7 ? 'red' : days <= 30 ? 'orange' : 'gray';
  const words = days === 0 ? 'Today' : days === 1 ? '1 day' : `${days} days`;
  return (
    // never cut short on a phone: the table scrolls sideways instead (a renewal is 1096 days away)
    <Badge color={color} variant="light" style={{ minWidth: 'max-content' }}>
      {words}
    </Badge>
  );
}

function Rows({ items }: { items: ExpiryItemOut[] }) {
  return (
    <ScrollArea>
      <Table striped miw={640} aria-label="What expires">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Expires on</Table.Th>
            <Table.Th>Left</Table.Th>
            <Table.Th>What</Table.Th>
            <Table.Th>Subject</Table.Th>
            <Table.Th>Case</Table.Th>
            <Table.Th>Reference</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((i) => (
            <Table.Tr key={`${i.kind}-${i.subject_id}-${i.case_id}-${i.reference}-${i.expires_on}`}>
              <Table.Td>{formatDate(i.expires_on)}</Table.Td>
              <Table.Td>
                <DaysLeft days={i.days_left} />
              </Table.Td>
              <Table.Td>{i.kind_label}</Table.Td>
              <Table.Td>
                <Anchor component={Link} to={href('subject', { id: i.subject_id })}>
                  {i.subject_name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {i.subject_email}
                </Text>
              </Table.Td>
              <Table.Td>
                {i.case_id === null ? (
                  '—'
                ) : (
                  <Anchor component={Link} to={href('case-detail', { id: i.case_id })}>
                    {`Case ${i.case_id}`}
                  </Anchor>
                )}
              </Table.Td>
              <Table.Td>{i.reference}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

/**
 * The expiry calendar (issue 33): what expires for the customer's subjects in the next 90 days
 * (or another window, up to ten years: a DVLA mandate renewed today ends in three), by date and
 * subject, filterable by kind and name, exportable as CSV.
 * Subjects and the customer are reminded before each date.
 */
export default function ExpiryCalendar() {
  const [params, setParams] = useSearchParams();
  const days = Number(params.get('days') ?? EXPIRY_WINDOW_DAYS) || EXPIRY_WINDOW_DAYS;
  const kindParam = params.get('kind') ?? '';
  const kind = isKind(kindParam) ? kindParam : '';
  const search = params.get('search') ?? '';
  const [debounced] = useDebouncedValue(search, 300);
  const filters: ExpiryFilters = { days, kind, search: debounced };
  const query = useQuery(expiryOptions(filters));
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1}>Expiry calendar</Title>
        <Button
          variant="default"
          component="a"
          href={exportHref(filters)}
          download="expiry-calendar.csv"
        >
          Export CSV
        </Button>
      </Group>
      <Text>
        Consents, identity documents, rights to work and licences of your subjects that expire soon.
        Each subject, and your administrators, are reminded 90, 30 and 7 days before the date; a
        driving licence check consent is renewed by the subject in their account.
      </Text>
      <Paper withBorder p="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {/* md as the theme's text inputs: the filters line up */}
          <Select
            size="md"
            label="Window"
            data={WINDOWS}
            value={String(days)}
            onChange={(v) => set('days', v ?? '')}
            allowDeselect={false}
          />
          <Select
            size="md"
            label="What"
            placeholder="Everything"
            data={EXPIRY_KINDS.map((k) => ({ value: k, label: EXPIRY_KIND_LABELS[k] }))}
            value={kind || null}
            onChange={(v) => set('kind', v ?? '')}
            clearable
          />
          <TextInput
            label="Subject"
            placeholder="Name or email"
            value={search}
            onChange={(e) => set('search', e.currentTarget.value)}
          />
        </SimpleGrid>
      </Paper>
      {query.isPending ? (
        <Skeleton h={200} />
      ) : query.data === null || query.isError ? (
        <Alert color="red">The calendar could not be loaded. Refresh the page to try again.</Alert>
      ) : query.data.count === 0 ? (
        <Text>Nothing expires in this window.</Text>
      ) : (
        <Stack gap="xs">
          <Text role="status">
            {`${query.data.count === 1 ? '1 item' : `${query.data.count} items`} up to ${formatDate(query.data.until)}`}
          </Text>
          <Rows items={query.data.results} />
        </Stack>
      )}
    </Stack>
  );
}
