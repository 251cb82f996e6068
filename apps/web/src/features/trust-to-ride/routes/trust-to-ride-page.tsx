import {
  formatDate,
  TRUST_TO_RIDE_ATTENDANCE_LABELS,
  type TrustToRideBookingOut,
  type TrustToRideSessionDetailOut,
} from '@kestrel/domain';
import {
  Anchor,
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { customerChoices } from '../../../api/customers';
import { Fact } from '../../../components/fact';
import { ListPagination } from '../../../components/list-states';
import listTable from '../../../components/list-table.module.css';
import { notify } from '../../../lib/notify';
import { SessionForm } from '../session-form';
import {
  addSession,
  bookPlace,
  editSession,
  getSession,
  listSessions,
  recordAttendance,
  unbookedActivities,
} from '../trust-to-ride-api';

const PAGE_SIZE = 25;
const KEY = '/api/ops/trust-to-ride/';

/** One session: its facts, its edit form, its attendance register and a place to book. */
function SessionDetail({ id }: { id: number }) {
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [booking, setBooking] = useState('');
  const [bookError, setBookError] = useState('');
  const session = useQuery({
    queryKey: [KEY, 'session', id],
    queryFn: async () => {
      const r = await getSession(id);
      if (!r.ok) throw new Error('Error retrieving session');
      return r.data;
    },
  });
  const s = session.data;
  const unbooked = useQuery({
    queryKey: [KEY, 'unbooked', s?.customer.id],
    enabled: s !== undefined,
    queryFn: async () => {
      const r = await unbookedActivities(s?.customer.id ?? 0);
      return r.ok ? r.data.results : [];
    },
  });
  const back = (
    <Anchor component={Link} to="?" size="sm">
      ← Sessions
    </Anchor>
  );
  if (!s) {
    return session.isError ? (
      <Stack>
        {back}
        <Text c="dimmed">This session does not exist.</Text>
      </Stack>
    ) : (
      <Skeleton h={240} radius="lg" />
    );
  }
  const started = new Date(s.starts_at).getTime() <= Date.now();
  const refresh = () => client.invalidateQueries({ queryKey: [KEY] });
  const attend = async (b: TrustToRideBookingOut, attendance: 'attended' | 'did-not-attend') => {
    const r = await recordAttendance(b.id, attendance);
    if (!r.ok) {
      notify.error(Object.values(r.data).flat().join(' ') || 'Error updating booking');
      return;
    }
    notify.success('Successfully updated booking');
    await refresh();
  };
  const book = async () => {
    if (!booking) {
      setBookError('Required');
      return;
    }
    const r = await bookPlace(s.id, Number(booking));
    if (!r.ok) {
      setBookError(Object.values(r.data).flat().join(' ') || 'Error adding booking');
      return;
    }
    setBookError('');
    setBooking('');
    notify.success('Successfully added booking');
    await refresh();
  };
  return (
    <Stack gap="lg" maw={1100}>
      {back}
      <Group justify="space-between" align="flex-start">
        <Title order={1}>
          {formatDate(s.date)} at {s.time}
        </Title>
        {!editing && (
          <Button variant="default" onClick={() => setEditing(true)}>
            Edit session
          </Button>
        )}
      </Group>
      <Paper withBorder radius="lg" p="lg">
        {editing ? (
          <SessionForm
            initial={{
              customer: String(s.customer.id),
              date: s.date,
              time: s.time,
              place: s.place,
              capacity: s.capacity,
            }}
            submitLabel="Save session"
            onCancel={() => setEditing(false)}
            onSubmit={async (v) => {
              const r = await editSession(s.id, {
                date: v.date,
                time: v.time,
                place: v.place,
                capacity: v.capacity,
              });
              if (!r.ok) return { ok: false, data: r.data };
              notify.success('Successfully updated session');
              setEditing(false);
              await refresh();
              return { ok: true };
            }}
          />
        ) : (
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
            <Fact label="Place">{s.place}</Fact>
            <Fact label="Customer">{s.customer.name}</Fact>
            <Fact label="Places">
              {s.booked} of {s.capacity} booked
            </Fact>
            <Fact label="Places left">{String(s.places_left)}</Fact>
          </SimpleGrid>
        )}
      </Paper>
      <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby="register-title">
        <Title order={2} size="h4" id="register-title" mb="sm">
          Attendance register
        </Title>
        {s.bookings.length === 0 ? (
          <Text c="dimmed">No one is booked on this session yet.</Text>
        ) : (
          <Register session={s} started={started} onAttend={attend} />
        )}
        {!started && s.places_left > 0 && (
          <Stack gap="xs" mt="md" data-testid="book-place">
            <NativeSelect
              id="book-activity"
              label="Book a place for"
              value={booking}
              onChange={(e) => setBooking(e.currentTarget.value)}
              error={bookError || undefined}
              data={[
                { value: '', label: 'Choose a subject' },
                ...(unbooked.data ?? []).map((a) => ({
                  value: String(a.id),
                  label: `${a.subject.name} (${a.subject.email}), case #${a.case}`,
                })),
              ]}
            />
            <Group>
              <Button onClick={book}>Book a place</Button>
            </Group>
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}

function Register({
  session,
  started,
  onAttend,
}: {
  session: TrustToRideSessionDetailOut;
  started: boolean;
  onAttend: (b: TrustToRideBookingOut, a: 'attended' | 'did-not-attend') => Promise<void>;
}) {
  return (
    // stacked cards on a phone (the subject's name the card's title, every other cell a labelled
    // line): nothing scrolls sideways
    <Table
      striped
      withTableBorder
      aria-label="Attendance register"
      className={listTable.table}
      style={{ '--list-min-width': '0px' }}
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Subject</Table.Th>
          <Table.Th scope="col">Case</Table.Th>
          <Table.Th scope="col">Booked</Table.Th>
          <Table.Th scope="col">Attendance</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {session.bookings.map((b) => (
          <Table.Tr key={b.id}>
            <Table.Td data-label="Subject">
              <div>
                <Text size="sm" fw="inherit">
                  {b.subject.name}
                </Text>
                <Text size="xs" c="dimmed" fw={400} style={{ overflowWrap: 'anywhere' }}>
                  {b.subject.email}
                </Text>
              </div>
            </Table.Td>
            <Table.Td data-label="Case">#{b.case}</Table.Td>
            <Table.Td data-label="Booked">{formatDate(b.booked_at)}</Table.Td>
            <Table.Td data-label="Attendance">
              {b.attendance ? (
                <Badge variant="light" color={b.attendance === 'attended' ? 'green' : 'red'}>
                  {TRUST_TO_RIDE_ATTENDANCE_LABELS[b.attendance]}
                </Badge>
              ) : started ? (
                <Group gap="xs" justify="flex-end">
                  <Button size="xs" onClick={() => onAttend(b, 'attended')}>
                    Attended
                  </Button>
                  <Button size="xs" variant="default" onClick={() => onAttend(b, 'did-not-attend')}>
                    Did not attend
                  </Button>
                </Group>
              ) : (
                <Text size="sm" c="dimmed">
                  Not yet held
                </Text>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The sessions, upcoming or past, of one customer or all; a new session's form. */
function SessionList() {
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const when = params.get('when') === 'past' ? 'past' : 'upcoming';
  const customer = Number(params.get('customer')) || undefined;
  const page = Number(params.get('page')) || 1;
  const [adding, setAdding] = useState(false);
  const customers = useQuery(customerChoices());
  const choices = (customers.data?.results ?? []).map((c) => ({
    value: String(c.id),
    label: c.name,
  }));
  const sessions = useQuery({
    queryKey: [KEY, 'sessions', when, customer, page],
    queryFn: async () => {
      const r = await listSessions({ when, page, ...(customer ? { customer } : {}) });
      if (!r.ok) throw new Error('Error getting list of sessions');
      return r.data;
    },
  });
  const setParam = (k: string, v: string) => {
    const next = new URLSearchParams(params);
    if (v) next.set(k, v);
    else next.delete(k);
    next.delete('page');
    setParams(next);
  };
  const rows = sessions.data?.results ?? [];
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between">
        <Title order={1}>Trust to ride</Title>
        {!adding && <Button onClick={() => setAdding(true)}>Add session</Button>}
      </Group>
      {adding && (
        <Paper withBorder radius="lg" p="lg" component="section" aria-label="Add session">
          <SessionForm
            initial={{
              customer: customer ? String(customer) : '',
              date: '',
              time: '',
              place: '',
              capacity: 8,
            }}
            customers={choices}
            submitLabel="Add session"
            onCancel={() => setAdding(false)}
            onSubmit={async (v) => {
              const r = await addSession(v);
              if (!r.ok) return { ok: false, data: r.data };
              notify.success('Successfully added session');
              setAdding(false);
              await client.invalidateQueries({ queryKey: [KEY] });
              return { ok: true };
            }}
          />
        </Paper>
      )}
      <Group gap="md" align="flex-end">
        <SegmentedControl
          aria-label="Sessions"
          value={when}
          onChange={(v) => setParam('when', v === 'past' ? 'past' : '')}
          data={[
            { value: 'upcoming', label: 'Upcoming' },
            { value: 'past', label: 'Past' },
          ]}
        />
        <NativeSelect
          label="Customer"
          value={customer ? String(customer) : ''}
          onChange={(e) => setParam('customer', e.currentTarget.value)}
          data={[{ value: '', label: 'All customers' }, ...choices]}
        />
      </Group>
      {sessions.isPending ? (
        <Skeleton h={200} radius="lg" />
      ) : rows.length === 0 ? (
        <Text c="dimmed">{when === 'past' ? 'No past sessions.' : 'No upcoming sessions.'}</Text>
      ) : (
        // stacked cards on a phone (the date the card's title): nothing scrolls sideways
        <Table
          striped
          highlightOnHover
          withTableBorder
          aria-label="Trust to ride sessions"
          className={listTable.table}
          style={{ '--list-min-width': '0px' }}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Date</Table.Th>
              <Table.Th scope="col">Time</Table.Th>
              <Table.Th scope="col">Place</Table.Th>
              <Table.Th scope="col">Customer</Table.Th>
              <Table.Th scope="col">Places</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td data-label="Date">
                  <Anchor component={Link} to={`?session=${s.id}`}>
                    {formatDate(s.date)}
                  </Anchor>
                </Table.Td>
                <Table.Td data-label="Time">{s.time}</Table.Td>
                <Table.Td data-label="Place">{s.place}</Table.Td>
                <Table.Td data-label="Customer">{s.customer.name}</Table.Td>
                <Table.Td data-label="Places">
                  <span>
                    {s.booked} / {s.capacity}
                    {s.places_left === 0 && (
                      <Badge ml="xs" size="sm" variant="light" color="gray">
                        Full
                      </Badge>
                    )}
                  </span>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <ListPagination
        total={Math.ceil((sessions.data?.count ?? 0) / PAGE_SIZE)}
        value={page}
        onChange={(p) => {
          const next = new URLSearchParams(params);
          next.set('page', String(p));
          setParams(next);
        }}
        label="Pages of sessions"
      />
    </Stack>
  );
}

/** /ops/trust-2-ride: operations' trust-to-ride sessions (list, add, edit, attendance register). */
export default function TrustToRidePage() {
  const [params] = useSearchParams();
  const id = Number(params.get('session'));
  return Number.isInteger(id) && id > 0 ? <SessionDetail id={id} /> : <SessionList />;
}
