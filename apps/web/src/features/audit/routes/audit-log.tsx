import {
  auditActorName,
  auditObjectText,
  codeInWords,
  contentTypeName,
  formatDate,
} from '@kestrel/domain';
import { Badge, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type AuditAction, auditActions } from '../../../api/audit';
import { users as userList } from '../../../api/users';
import { DateSelector } from '../../../components/date-selector';
import { ResourceTable } from '../../../components/resource-table';
import { useRights } from '../../../lib/rights';
import { useSession } from '../../../lib/session/session-store';
import { RecordViews } from '../components/record-views';
import { RefusedRequests } from '../components/refused-requests';

const time = (iso: string) => iso.slice(11, 16);
const today = () => new Date().toISOString().slice(0, 10);

function describeChanges(changes: Record<string, unknown>): string {
  const keys = Object.keys(changes ?? {});
  if (keys.length === 0) return '';
  const shown = keys.slice(0, 4).join(', ');
  return keys.length > 4 ? `${shown} and ${keys.length - 4} more` : shown;
}

/** Every write of the organisation: who did what to which object, when. */
export default function AuditLog() {
  const session = useSession();
  const { can } = useRights();
  const [actor, setActor] = useState<string | null>(null);
  const [objectId, setObjectId] = useState('');
  const [after, setAfter] = useState<string | null>(null);
  const [before, setBefore] = useState<string | null>(null);
  const users = useQuery({
    ...userList.listOptions({ page_size: 100, ordering: 'last_name' }),
    enabled: can('users.view_productuser'),
    select: (page) => page.results,
  });
  const verbs = session.bootstrap?.verbs ?? [];
  const verbName = (code: string) => verbs.find((v) => v.code === code)?.name ?? codeInWords(code);
  // One display per actor: the name, with the email beneath when the actor is a known user.
  const actorEmail = (a: AuditAction) =>
    a.actor_type === 'ProductUser'
      ? (users.data ?? []).find((u) => u.id === a.actor)?.email
      : undefined;
  const types = session.bootstrap?.contentTypes ?? [];
  const params = {
    actor: actor ?? undefined,
    object_id: objectId.trim() || undefined,
    created_after: after ?? undefined,
    created_before: before ?? undefined,
    ordering: '-created_at',
  };
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Audit log</Title>
        <Text c="dimmed">Every change made in your organisation, newest first.</Text>
      </Stack>
      <Paper withBorder radius="lg" p="md">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
          <Select
            label="Actor"
            placeholder="Anyone"
            data={(users.data ?? []).map((u) => ({
              value: String(u.id),
              label: `${u.first_name} ${u.last_name}`.trim() || u.username,
            }))}
            value={actor}
            onChange={setActor}
            clearable
            searchable
          />
          <TextInput
            label="Object id"
            size="sm"
            placeholder="e.g. 42"
            value={objectId}
            onChange={(e) => setObjectId(e.currentTarget.value)}
          />
          <DateSelector
            label="From"
            required={false}
            value={after}
            max={today()}
            onChange={setAfter}
          />
          <DateSelector
            label="To"
            required={false}
            value={before}
            max={today()}
            onChange={setBefore}
          />
        </SimpleGrid>
      </Paper>
      <ResourceTable<AuditAction>
        key={JSON.stringify(params)}
        resource={auditActions}
        params={params}
        externalFilters={{
          active: Boolean(actor || objectId.trim() || after || before),
          clear: () => {
            setActor(null);
            setObjectId('');
            setAfter(null);
            setBefore(null);
          },
        }}
        empty={{
          title: 'No changes recorded yet',
          text: 'Every change made in your organisation (cases, subjects, users, settings) is recorded here.',
        }}
        filters={[
          {
            name: 'verb',
            label: 'Verb',
            options: verbs.map((v) => ({ value: v.code, label: v.name })),
          },
          {
            name: 'content_type',
            label: 'Object type',
            options: types.map((t) => ({
              value: `${t.app_label}.${t.model}`,
              label: contentTypeName(`${t.app_label}.${t.model}`),
            })),
          },
        ]}
        columns={[
          {
            key: 'when',
            header: 'When',
            render: (a) => (
              <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                {formatDate(a.created_at)} {time(a.created_at)}
              </Text>
            ),
          },
          {
            key: 'actor',
            header: 'Actor',
            render: (a) => {
              const name = auditActorName(a.actor_name, a.actor_type);
              const email = name === 'System' ? undefined : actorEmail(a);
              return (
                <Stack gap={0}>
                  <Text size="sm">{name}</Text>
                  {email && email !== name ? (
                    <Text size="xs" c="dimmed">
                      {email}
                    </Text>
                  ) : null}
                </Stack>
              );
            },
          },
          {
            key: 'verb',
            header: 'Verb',
            render: (a) => (
              <Badge variant="light" color="gray" tt="none">
                {verbName(a.verb)}
              </Badge>
            ),
          },
          {
            key: 'object',
            header: 'Object',
            render: (a) => (
              <Stack gap={0}>
                <Text size="sm">{a.object_repr}</Text>
                <Text size="xs" c="dimmed">
                  {auditObjectText(a.content_type, a.object_id)}
                </Text>
              </Stack>
            ),
          },
          {
            key: 'changes',
            header: 'Changes',
            render: (a) => (
              <Text size="xs" c="dimmed">
                {describeChanges(a.changes)}
              </Text>
            ),
          },
        ]}
      />
      <RecordViews
        people={(users.data ?? []).map((u) => ({
          value: String(u.id),
          label: `${u.first_name} ${u.last_name}`.trim() || u.username,
        }))}
      />
      <RefusedRequests />
    </Stack>
  );
}
