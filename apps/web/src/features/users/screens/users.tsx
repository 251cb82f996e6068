import { formatDate, USER_STATUS_WORDS, USER_STATUSES } from '@kestrel/domain';
import { Button, Group, Select, Stack, Tabs, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { nameOf, roles, type User, users } from '../api';
import { RolesSection } from '../components/roles-section';
import { UserStatusBadge } from '../components/status-badge';

/**
 * /users: the organisation's staff (search; role and status filters kept in the URL, as
 * ?role= and ?status=) with their last sign-in, and a Roles tab (?tab=roles).
 */
export default function Users() {
  const { can } = useRights();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'roles' && can('roles.view_role') ? 'roles' : 'users';
  const status = params.get('status');
  const role = params.get('role');
  const roleList = roles.useList({ page_size: 100 });
  const names = new Map((roleList.data?.results ?? []).map((r) => [r.id, r.name]));
  const set = (key: string, value: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Stack gap={4}>
          <Title order={1}>Users</Title>
          <Text size="sm" c="dimmed">
            Your organisation's staff, what they may do and which segments they see.
          </Text>
        </Stack>
        {can('users.add_productuser') && (
          <Button component={Link} to={href('user-add')}>
            Add user
          </Button>
        )}
      </Group>
      <Tabs
        keepMounted={false}
        value={tab}
        onChange={(v) => set('tab', v === 'roles' ? 'roles' : null)}
      >
        <Tabs.List>
          <Tabs.Tab value="users">Users</Tabs.Tab>
          {can('roles.view_role') && <Tabs.Tab value="roles">Roles</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="users" pt="md">
          <Stack gap="sm">
            <Group gap="sm">
              <Select
                aria-label="Status"
                placeholder="Any status"
                clearable
                size="sm"
                data={USER_STATUSES.map((s) => ({ value: s, label: USER_STATUS_WORDS[s] }))}
                value={status}
                onChange={(v) => set('status', v)}
              />
              <Select
                aria-label="Role"
                placeholder="Any role"
                clearable
                size="sm"
                data={[...names].map(([id, name]) => ({ value: String(id), label: name }))}
                value={role}
                onChange={(v) => set('role', v)}
              />
            </Group>
            <ResourceTable<User>
              resource={users}
              params={{ status: status ?? undefined, role: role ?? undefined }}
              externalFilters={{
                active: Boolean(status || role),
                clear: () => setParams({}, { replace: true }),
              }}
              rowHref={(u) => href('user', { id: u.id })}
              empty={{
                title: 'No users yet',
                text: 'Invite your colleagues to share the work of your checks.',
              }}
              columns={[
                { key: 'name', header: 'Name', render: nameOf },
                { key: 'email', header: 'Email', render: (u) => u.email },
                {
                  key: 'roles',
                  header: 'Roles',
                  render: (u) =>
                    u.roles
                      .map((id) => names.get(id) ?? '')
                      .filter(Boolean)
                      .join(', ') || '—',
                },
                {
                  key: 'status',
                  header: 'Status',
                  render: (u) => <UserStatusBadge status={u.status} />,
                },
                {
                  key: 'last',
                  header: 'Last sign-in',
                  render: (u) => (u.last_login_at ? formatDate(u.last_login_at) : 'Never'),
                },
              ]}
            />
          </Stack>
        </Tabs.Panel>
        {can('roles.view_role') && (
          <Tabs.Panel value="roles" pt="md">
            <RolesSection />
          </Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  );
}
