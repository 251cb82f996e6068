import { type ApiKeyOut, isPermission, type Permission, permissionGroups } from '@kestrel/domain';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
  Modal,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { backendErrorLines } from '../../api/messages';
import { CopyButton } from '../../components/copy-button';
import { notify } from '../../lib/notify';
import { heldRights } from '../../lib/rights';
import { useSession } from '../../lib/session/session-store';
import { API_KEYS_KEY, createApiKey, revokeApiKey, useApiKeys } from './api';
import { AccessSection, when } from './section';

/** The secret of a key just made, shown once with a copy button. */
export function SecretOnce({ label, secret }: { label: string; secret: string }) {
  return (
    <Alert color="yellow" variant="light" title={label}>
      <Stack gap="xs">
        <Text size="sm">Copy it now: it will not be shown again.</Text>
        <Group gap="xs" wrap="nowrap">
          <Code style={{ overflowWrap: 'anywhere' }} data-testid="secret-once">
            {secret}
          </Code>
          <CopyButton value={secret} label="Copy" />
        </Group>
      </Stack>
    </Alert>
  );
}

function CreateKey({ onDone }: { onDone: (secret: string) => void }) {
  const client = useQueryClient();
  const session = useSession();
  const held = heldRights(session).permissions.filter(isPermission);
  const groups = permissionGroups(held as readonly Permission[]);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(
    ['cases.view_case'].filter((p) => held.includes(p as Permission)),
  );
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    const r = await createApiKey({ name, scopes: scopes.filter(isPermission) });
    setBusy(false);
    if (!r.ok) {
      setErrors(backendErrorLines(r.data));
      return;
    }
    await client.invalidateQueries({ queryKey: API_KEYS_KEY });
    notify.success('API key created.');
    onDone(r.data.secret);
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
        label="Name"
        description="What uses it, e.g. 'HR system'"
        required
        maxLength={100}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
      />
      <Checkbox.Group label="Permissions" value={scopes} onChange={setScopes}>
        <Stack gap="xs" mt="xs" mah={320} style={{ overflowY: 'auto' }}>
          {groups.map((g) => (
            <Stack key={g.module} gap={4}>
              <Text fw={600} size="sm">
                {g.label}
              </Text>
              {g.permissions.map((p) => (
                <Checkbox key={p.permission} value={p.permission} label={p.words} />
              ))}
            </Stack>
          ))}
        </Stack>
      </Checkbox.Group>
      <Group justify="flex-end">
        <Button onClick={() => void submit()} loading={busy} disabled={name.trim() === ''}>
          Create key
        </Button>
      </Group>
    </Stack>
  );
}

function KeyRow({ k, onRevoke }: { k: ApiKeyOut; onRevoke: (k: ApiKeyOut) => void }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={600}>
          {k.name}
        </Text>
        <Code>{k.prefix}…</Code>
      </Table.Td>
      <Table.Td>
        <Text size="sm">
          {k.scopes.length === 1 ? k.scopes[0] : `${k.scopes.length} permissions`}
        </Text>
      </Table.Td>
      <Table.Td>{when(k.last_used_at)}</Table.Td>
      <Table.Td>{k.created_by || '—'}</Table.Td>
      <Table.Td>
        {k.revoked_at ? (
          <Badge color="gray" variant="light">
            Revoked
          </Badge>
        ) : (
          <Button size="xs" variant="default" color="red" onClick={() => onRevoke(k)}>
            Revoke
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** Organisation account → API keys: list, create (secret shown once), revoke with confirmation. */
export function ApiKeysSection() {
  const client = useQueryClient();
  const query = useApiKeys();
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyOut | null>(null);
  const revoke = async () => {
    if (!revoking) return;
    const r = await revokeApiKey(revoking.id);
    setRevoking(null);
    if (!r.ok) {
      notify.error('The key could not be revoked.');
      return;
    }
    notify.success('API key revoked.');
    await client.invalidateQueries({ queryKey: API_KEYS_KEY });
  };
  return (
    <AccessSection
      title="API keys"
      intro="Your own systems call the Kestrel API with a key sent as 'Authorization: Bearer <key>'. A key can do only what its permissions allow."
    >
      {secret && <SecretOnce label="Your new API key" secret={secret} />}
      <Group>
        <Button onClick={() => setCreating(true)}>Create API key</Button>
      </Group>
      {query.isPending ? (
        <Skeleton h={80} />
      ) : query.isError ? (
        <Alert color="red" variant="light" role="alert">
          The API keys could not be loaded.
        </Alert>
      ) : query.data.length === 0 ? (
        <Text c="dimmed">No API keys yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Key</Table.Th>
                <Table.Th>Permissions</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>Created by</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.map((k) => (
                <KeyRow key={k.id} k={k} onRevoke={setRevoking} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal opened={creating} onClose={() => setCreating(false)} title="Create API key" size="lg">
        <CreateKey
          onDone={(s) => {
            setCreating(false);
            setSecret(s);
          }}
        />
      </Modal>
      <Modal opened={revoking !== null} onClose={() => setRevoking(null)} title="Revoke API key">
        <Stack>
          <Text>
            Revoke '{revoking?.name}'? Systems using it stop working at once. This cannot be undone.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(null)}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void revoke()}>
              Revoke key
            </Button>
          </Group>
        </Stack>
      </Modal>
    </AccessSection>
  );
}
