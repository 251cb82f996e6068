import {
  type Permission,
  permissionGroups,
  permissionWords,
  type RoleCreate,
  roleCreate,
  USER_ADMIN_MESSAGES,
} from '@kestrel/domain';
import {
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { ApiFailure } from '../../../api/resource';
import { ErrorSummary } from '../../../components/form-kit';
import { useRights } from '../../../lib/rights';
import { type Role, roles } from '../api';

const GROUPS = permissionGroups();

/** The add or edit dialog of a custom role: a name and permission boxes grouped by module. */
function RoleDialog({ role, onClose }: { role: Role | null; onClose: () => void }) {
  const save = roles.useSave({ partial: true });
  const { can } = useRights();
  // decision 028: a role gains only permissions the user holds; what it has may stay or go
  const givable = (p: Permission) => can(p) || (role?.permissions ?? []).includes(p);
  const limited = GROUPS.some((g) => g.permissions.some((p) => !givable(p.permission)));
  const [name, setName] = useState(role?.name ?? '');
  const [held, setHeld] = useState<string[]>(role?.permissions ?? []);
  const [errors, setErrors] = useState<string[]>([]);
  const submit = async () => {
    const parsed = roleCreate.safeParse({ name, permissions: held });
    if (!parsed.success) {
      setErrors(parsed.error.issues.map((i) => i.message));
      return;
    }
    const values: RoleCreate = parsed.data;
    try {
      await save.mutateAsync(role ? { id: role.id, values } : { values });
      onClose();
    } catch (error) {
      const body = error instanceof ApiFailure ? (error.body as Record<string, string[]>) : {};
      setErrors(Object.values(body).flat());
    }
  };
  return (
    <Stack gap="md">
      {errors.length > 0 && <ErrorSummary errors={errors.map((message) => ({ message }))} />}
      <TextInput
        label="Role name"
        required
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
      />
      {limited && (
        <Text size="sm" c="dimmed">
          {USER_ADMIN_MESSAGES.grantPermissionHint}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        {GROUPS.map((g) => (
          <Checkbox.Group key={g.module} label={g.label} value={held} onChange={setHeld}>
            <Stack gap={6} mt={6}>
              {g.permissions.map((p) => (
                <Checkbox
                  key={p.permission}
                  value={p.permission}
                  label={p.words}
                  disabled={!givable(p.permission)}
                />
              ))}
            </Stack>
          </Checkbox.Group>
        ))}
      </SimpleGrid>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button loading={save.isPending} onClick={() => void submit()}>
          {role ? 'Save role' : 'Add role'}
        </Button>
      </Group>
    </Stack>
  );
}

/** The organisation's roles: built-in ones read-only, custom ones added, edited, deleted. */
export function RolesSection() {
  const { can } = useRights();
  const list = roles.useList({ page_size: 100 });
  const remove = roles.useDelete();
  const [editing, setEditing] = useState<Role | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Role | null>(null);
  const rows = list.data?.results ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          A role is a set of permissions. Built-in roles cannot be changed; your own can.
        </Text>
        {can('roles.add_role') && <Button onClick={() => setEditing('new')}>Add role</Button>}
      </Group>
      {rows.map((r) => (
        <Paper key={r.id} withBorder radius="lg" p="lg">
          <Stack gap="sm">
            <Group justify="space-between">
              <Group gap="xs">
                <Title order={2} size="h4">
                  {r.name}
                </Title>
                {r.built_in && <Badge variant="light">Built-in</Badge>}
                <Text size="sm" c="dimmed">
                  {r.user_count} {r.user_count === 1 ? 'user' : 'users'}
                </Text>
              </Group>
              {!r.built_in && (
                <Group gap="xs">
                  {can('roles.change_role') && (
                    <Button size="xs" variant="default" onClick={() => setEditing(r)}>
                      Edit {r.name}
                    </Button>
                  )}
                  {can('roles.delete_role') && r.user_count === 0 && (
                    <Button size="xs" variant="light" color="red" onClick={() => setDeleting(r)}>
                      Delete {r.name}
                    </Button>
                  )}
                </Group>
              )}
            </Group>
            <Text size="sm">
              {r.permissions.length === 0
                ? 'No permissions'
                : r.permissions.map(permissionWords).join(' · ')}
            </Text>
          </Stack>
        </Paper>
      ))}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add role' : `Edit ${editing?.name ?? ''}`}
        size="xl"
      >
        {editing !== null && (
          <RoleDialog role={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
        )}
      </Modal>
      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={`Delete ${deleting?.name ?? ''}?`}
      >
        <Stack gap="md">
          <Text size="sm">No one holds this role. Deleting it cannot be undone.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              Keep it
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() => {
                if (deleting) void remove.mutateAsync(deleting.id).then(() => setDeleting(null));
              }}
            >
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
