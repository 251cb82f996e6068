import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  type WebhookEndpointOut,
  type WebhookEvent,
} from '@kestrel/domain';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { backendErrorLines } from '../../api/messages';
import { notify } from '../../lib/notify';
import {
  createEndpoint,
  deleteEndpoint,
  deliveriesKey,
  type EndpointBody,
  resendDelivery,
  testEndpoint,
  updateEndpoint,
  useDeliveries,
  useWebhookEndpoints,
  WEBHOOK_ENDPOINTS_KEY,
} from './api';
import { SecretOnce } from './api-keys-section';
import { AccessSection, when } from './section';

const eventLabel = (e: string) =>
  (WEBHOOK_EVENTS as readonly string[]).includes(e)
    ? WEBHOOK_EVENT_LABELS[e as WebhookEvent]
    : e === 'endpoint.test'
      ? 'Test event'
      : e;

function EndpointForm({
  endpoint,
  onDone,
}: {
  endpoint: WebhookEndpointOut | null;
  onDone: (secret: string | null) => void;
}) {
  const client = useQueryClient();
  const [url, setUrl] = useState(endpoint?.url ?? 'https://');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [events, setEvents] = useState<string[]>(
    endpoint?.events ?? ['case.created', 'case.completed'],
  );
  const [enabled, setEnabled] = useState(endpoint?.is_enabled ?? true);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    const body: EndpointBody = { url, description, events, is_enabled: enabled };
    const r = endpoint ? await updateEndpoint(endpoint.id, body) : await createEndpoint(body);
    setBusy(false);
    if (!r.ok) {
      setErrors(backendErrorLines(r.data));
      return;
    }
    await client.invalidateQueries({ queryKey: WEBHOOK_ENDPOINTS_KEY });
    notify.success(endpoint ? 'Webhook endpoint saved.' : 'Webhook endpoint added.');
    onDone('secret' in r.data && typeof r.data.secret === 'string' ? r.data.secret : null);
  };
  return (
    <Stack gap="sm">
      {errors.length > 0 && (
        <Alert color="red" variant="light" role="alert">
          {errors.map((e) => (
            <div key={e}>{e}</div>
          ))}
        </Alert>
      )}
      <TextInput
        label="URL"
        required
        maxLength={500}
        value={url}
        onChange={(e) => setUrl(e.currentTarget.value)}
      />
      <TextInput
        label="Description"
        maxLength={200}
        value={description}
        onChange={(e) => setDescription(e.currentTarget.value)}
      />
      <Checkbox.Group label="Events" value={events} onChange={setEvents}>
        <Stack gap="xs" mt="xs">
          {WEBHOOK_EVENTS.map((e) => (
            <Checkbox key={e} value={e} label={WEBHOOK_EVENT_LABELS[e]} />
          ))}
        </Stack>
      </Checkbox.Group>
      <Switch
        label="Enabled"
        checked={enabled}
        onChange={(e) => setEnabled(e.currentTarget.checked)}
      />
      <Group justify="flex-end">
        <Button onClick={() => void submit()} loading={busy}>
          {endpoint ? 'Save endpoint' : 'Add endpoint'}
        </Button>
      </Group>
    </Stack>
  );
}

const STATUS_COLOUR = { pending: 'yellow', delivered: 'green', failed: 'red' } as const;

function Deliveries({ endpoint }: { endpoint: number }) {
  const client = useQueryClient();
  const query = useDeliveries(endpoint);
  const resend = async (id: number) => {
    const r = await resendDelivery(id);
    if (!r.ok) notify.error('The delivery could not be sent again.');
    else notify.success('Delivery queued again.');
    await client.invalidateQueries({ queryKey: deliveriesKey(endpoint) });
  };
  if (query.isPending) return <Skeleton h={60} />;
  if (query.isError)
    return (
      <Alert color="red" variant="light" role="alert">
        The deliveries could not be loaded.
      </Alert>
    );
  if (query.data.length === 0) return <Text c="dimmed">No deliveries yet.</Text>;
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table aria-label="Deliveries">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Event</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Answer</Table.Th>
            <Table.Th>Latency</Table.Th>
            <Table.Th>Attempts</Table.Th>
            <Table.Th>When</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {query.data.map((d) => (
            <Table.Tr key={d.id}>
              <Table.Td>{eventLabel(d.event)}</Table.Td>
              <Table.Td>
                <Badge color={STATUS_COLOUR[d.status]} variant="light">
                  {d.status}
                </Badge>
              </Table.Td>
              <Table.Td maw={240}>
                <Text size="xs" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
                  {d.response_status ?? '—'} {d.error || d.response_excerpt}
                </Text>
              </Table.Td>
              <Table.Td>{d.latency_ms === null ? '—' : `${d.latency_ms} ms`}</Table.Td>
              <Table.Td>{d.attempts}</Table.Td>
              <Table.Td>{when(d.last_attempt_at ?? d.created_at)}</Table.Td>
              <Table.Td>
                <Button size="xs" variant="default" onClick={() => void resend(d.id)}>
                  Resend
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function EndpointCard({
  e,
  onEdit,
  onDelete,
}: {
  e: WebhookEndpointOut;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [testing, setTesting] = useState(false);
  const test = async () => {
    setTesting(true);
    const r = await testEndpoint(e.id);
    setTesting(false);
    if (r.ok && r.data.status === 'delivered') notify.success('Test event delivered.');
    else notify.error('The test event was not delivered.');
    setOpen(true);
    await client.invalidateQueries({ queryKey: deliveriesKey(e.id) });
  };
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {e.url}
          </Text>
          <Badge color={e.is_enabled ? 'green' : 'gray'} variant="light">
            {e.is_enabled ? 'Enabled' : 'Disabled'}
          </Badge>
        </Group>
        {e.description && <Text size="sm">{e.description}</Text>}
        {e.disabled_reason && (
          <Text size="sm" c="red">
            {e.disabled_reason}
          </Text>
        )}
        <Group gap={6}>
          {e.events.map((x) => (
            <Badge key={x} variant="outline" size="sm">
              {eventLabel(x)}
            </Badge>
          ))}
        </Group>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={onEdit}>
            Edit
          </Button>
          <Button size="xs" variant="default" onClick={() => void test()} loading={testing}>
            Send test event
          </Button>
          <Button
            size="xs"
            variant="default"
            onClick={() => setOpen((o) => !o)}
            aria-expanded={open}
          >
            {open ? 'Hide deliveries' : 'Deliveries'}
          </Button>
          <Button size="xs" variant="default" color="red" onClick={onDelete}>
            Delete
          </Button>
        </Group>
        {open && <Deliveries endpoint={e.id} />}
      </Stack>
    </Paper>
  );
}

/** Organisation account → Webhooks: endpoints, their signed deliveries' log, resend and test. */
export function WebhooksSection() {
  const client = useQueryClient();
  const query = useWebhookEndpoints();
  const [editing, setEditing] = useState<WebhookEndpointOut | 'new' | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpointOut | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const remove = async () => {
    if (!deleting) return;
    const r = await deleteEndpoint(deleting.id);
    setDeleting(null);
    if (!r.ok) notify.error('The endpoint could not be deleted.');
    else notify.success('Webhook endpoint deleted.');
    await client.invalidateQueries({ queryKey: WEBHOOK_ENDPOINTS_KEY });
  };
  return (
    <AccessSection
      title="Webhooks"
      intro="Kestrel tells your systems of events as they happen, by a signed POST to each endpoint (the Kestrel-Signature header)."
    >
      {secret && <SecretOnce label="The endpoint's signing secret" secret={secret} />}
      <Group>
        <Button onClick={() => setEditing('new')}>Add endpoint</Button>
      </Group>
      {query.isPending ? (
        <Skeleton h={80} />
      ) : query.isError ? (
        <Alert color="red" variant="light" role="alert">
          The webhook endpoints could not be loaded.
        </Alert>
      ) : query.data.length === 0 ? (
        <Text c="dimmed">No webhook endpoints yet.</Text>
      ) : (
        <Stack gap="sm">
          {query.data.map((e) => (
            <EndpointCard
              key={e.id}
              e={e}
              onEdit={() => setEditing(e)}
              onDelete={() => setDeleting(e)}
            />
          ))}
        </Stack>
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add webhook endpoint' : 'Edit webhook endpoint'}
        size="lg"
      >
        {editing !== null && (
          <EndpointForm
            endpoint={editing === 'new' ? null : editing}
            onDone={(s) => {
              setEditing(null);
              if (s) setSecret(s);
            }}
          />
        )}
      </Modal>
      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete webhook endpoint"
      >
        <Stack>
          <Text>Delete the endpoint {deleting?.url} and its deliveries' log?</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void remove()}>
              Delete endpoint
            </Button>
          </Group>
        </Stack>
      </Modal>
    </AccessSection>
  );
}
