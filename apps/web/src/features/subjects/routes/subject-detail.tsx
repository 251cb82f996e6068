import {
  CASE_STATE_LABELS,
  formatDate,
  formatPhone,
  isCaseState,
  subjectAccountText,
} from '@kestrel/domain';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { cases } from '../../../api/cases';
import { flags } from '../../../api/flags';
import { fullName, type Subject, subjects } from '../../../api/subjects';
import { ResendInvitationButton } from '../../../components/resend-invitation-button';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { SubjectSubscriptionsTab } from '../../cycles';
import { SubjectDataPanel } from '../../data-requests';
import { RaiseFlagButton } from '../../flags';
import { SubjectRegistrationsTab } from '../../regportals';
import { ConsentsTable } from '../components/consents-table';

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text style={{ overflowWrap: 'anywhere' }}>{value || '—'}</Text>
    </Stack>
  );
}

function SubjectCases({ subject }: { subject: Subject }) {
  const query = useQuery(cases.listOptions({ subject: subject.id, is_archived: 'all' }));
  if (query.isPending) return <Skeleton h={60} />;
  const rows = query.data?.results ?? [];
  if (rows.length === 0) return <Text c="dimmed">No cases yet.</Text>;
  return (
    <Table>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Case</Table.Th>
          <Table.Th>Process</Table.Th>
          <Table.Th>State</Table.Th>
          <Table.Th>Opened</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((c) => (
          <Table.Tr key={c.id}>
            <Table.Td>
              <Anchor component={Link} to={href('case-detail', { id: c.id })}>
                #{c.id}
              </Anchor>
            </Table.Td>
            <Table.Td>{c.process.name}</Table.Td>
            <Table.Td>{isCaseState(c.state) ? CASE_STATE_LABELS[c.state] : c.state}</Table.Td>
            <Table.Td>{formatDate(c.created_at)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The subject's active flags (rule or by hand), each with its message; none shows nothing. */
function SubjectFlags({ subject }: { subject: Subject }) {
  const query = useQuery(flags.listOptions({ subject: subject.id, active: 'true' }));
  const rows = query.data?.results ?? [];
  if (rows.length === 0) return null;
  return (
    <Alert color="red" variant="light" title={rows.length === 1 ? 'Active flag' : 'Active flags'}>
      <Stack gap={4}>
        {rows.map((f) => (
          <Text key={f.id} size="sm">
            {f.message}{' '}
            <Text span size="xs" c="dimmed">
              (
              {f.kind === 'rule' ? 'raised by a rule' : `raised by ${f.created_by_name ?? 'staff'}`}
              , {formatDate(f.created_at)})
            </Text>
          </Text>
        ))}
        <Anchor component={Link} to={href('flags')} size="sm">
          Resolve on the flags page
        </Anchor>
      </Stack>
    </Alert>
  );
}

export default function SubjectDetail({ tab = 'cases' }: { tab?: string }) {
  const { id = '' } = useParams();
  const { can, entitled } = useRights();
  const client = useQueryClient();
  const query = subjects.useItem(id);
  const s = query.data;
  // Issue 31: the subscriptions tab is for a customer holding the cycles entitlement.
  const showsSubscriptions = entitled('cycles') && can('subscriptions.view_subscription');
  // Issue 31: the registrations through the portals, for a customer holding regportals.
  const showsRegistrations = entitled('regportals');
  if (!s) {
    return query.isError ? (
      <Stack>
        <Title order={1}>Subject</Title>
        <Text c="dimmed">This subject could not be found.</Text>
      </Stack>
    ) : (
      <Skeleton h={240} radius="lg" />
    );
  }
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={href('subjects')} size="sm">
        ← All subjects
      </Anchor>
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1}>{fullName(s)}</Title>
          <Group gap="xs">
            {s.is_archived && (
              <Badge color="gray" variant="light">
                Archived {formatDate(s.archived_at)}
              </Badge>
            )}
            <Badge color={s.has_account ? 'teal' : 'yellow'} variant="light">
              {subjectAccountText(s.has_account)}
            </Badge>
          </Group>
        </Stack>
        <Group gap="sm">
          {!s.has_account && !s.is_archived && can('subjects.change_subject') && (
            <ResendInvitationButton subjectId={s.id} />
          )}
          {can('flags.change_flag') && (
            <RaiseFlagButton
              target={{ subject: s.id }}
              onRaised={() => client.invalidateQueries({ queryKey: flags.keys.all })}
            />
          )}
          {entitled('subject_dedup') && (
            <Button
              variant="default"
              component={Link}
              to={href('subject-duplicates', {}, { subject: s.id })}
            >
              Find duplicates
            </Button>
          )}
          {can('subjects.archive') && !s.is_archived && (
            <Button
              variant="default"
              color="red"
              component={Link}
              to={href('subject-archive', { id: s.id })}
            >
              Archive
            </Button>
          )}
          {can('cases.add_case') && !s.is_archived && (
            <Button component={Link} to={href('case-add', {}, { subject: s.id })}>
              Open a case
            </Button>
          )}
        </Group>
      </Group>
      {can('flags.view_flag') && <SubjectFlags subject={s} />}
      <Paper withBorder radius="lg" p="xl">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
          <Fact label="Email" value={s.email} />
          <Fact label="Phone number" value={formatPhone(s.phone_number)} />
          <Fact label="Date of birth" value={formatDate(s.dob)} />
          <Fact label="Added" value={formatDate(s.created_at)} />
          <Fact label="Open cases" value={String(s.open_cases)} />
        </SimpleGrid>
      </Paper>
      <Paper withBorder radius="lg" p="md">
        <Tabs defaultValue={tab} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="cases">Cases</Tabs.Tab>
            {showsSubscriptions && <Tabs.Tab value="subscriptions">Subscriptions</Tabs.Tab>}
            {showsRegistrations && <Tabs.Tab value="registrations">Registrations</Tabs.Tab>}
            <Tabs.Tab value="consents">Consents</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="cases" pt="md">
            <SubjectCases subject={s} />
          </Tabs.Panel>
          {showsSubscriptions && (
            <Tabs.Panel value="subscriptions" pt="md">
              <SubjectSubscriptionsTab subject={s} />
            </Tabs.Panel>
          )}
          {showsRegistrations && (
            <Tabs.Panel value="registrations" pt="md">
              <SubjectRegistrationsTab subjectId={s.id} />
            </Tabs.Panel>
          )}
          <Tabs.Panel value="consents" pt="md">
            <ConsentsTable subjectId={s.id} />
          </Tabs.Panel>
        </Tabs>
      </Paper>
      <SubjectDataPanel subjectId={s.id} />
    </Stack>
  );
}
