import { type CustomerOut, formatDate, type OpsCustomerUserInvite } from '@kestrel/domain';
import {
  Button,
  Checkbox,
  Group,
  Paper,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import type { ApiErrorBody } from '../../../api/client';
import classes from '../../../components/list-table.module.css';
import { notify } from '../../../lib/notify';
import { UserStatusBadge } from '../../users';
import { customerUsersOptions, useCustomerUserActions } from '../api';
import { CustomerFrame } from '../components/customer-frame';

function InviteForm({ customer }: { customer: CustomerOut }) {
  const { invite } = useCustomerUserActions(customer.id);
  const form = useForm<OpsCustomerUserInvite>({
    defaultValues: { first_name: '', last_name: '', email: '', administrator: false },
  });
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async (v) => {
    try {
      await invite.mutateAsync(v);
      form.reset();
    } catch (e) {
      const body: ApiErrorBody = typeof e === 'object' && e !== null ? { ...e } : {};
      let shown = false;
      for (const f of ['first_name', 'last_name', 'email'] as const) {
        const m = body[f];
        if (Array.isArray(m)) {
          form.setError(f, { message: String(m[0]) });
          shown = true;
        }
      }
      if (!shown) notify.error('Error inviting user');
    }
  });
  return (
    <Paper withBorder radius="lg" p="md">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4">
            Invite a user
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput
              label="First name"
              required
              {...form.register('first_name')}
              error={errors.first_name?.message}
            />
            <TextInput
              label="Last name"
              required
              {...form.register('last_name')}
              error={errors.last_name?.message}
            />
            <TextInput
              label="Email"
              type="email"
              required
              {...form.register('email')}
              error={errors.email?.message}
            />
          </SimpleGrid>
          <Group justify="space-between">
            <Controller
              control={form.control}
              name="administrator"
              render={({ field }) => (
                <Checkbox
                  label="Administrator"
                  checked={field.value}
                  onChange={(e) => field.onChange(e.currentTarget.checked)}
                />
              )}
            />
            <Button type="submit" loading={invite.isPending}>
              Send invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function Users({ customer }: { customer: CustomerOut }) {
  const users = useQuery(customerUsersOptions(customer.id));
  const { setActive } = useCustomerUserActions(customer.id);
  const rows = users.data?.results ?? [];
  return (
    <Stack gap="lg">
      <Paper withBorder radius="lg" p="md">
        <ScrollArea>
          <Table
            aria-label="Users"
            className={classes.table}
            style={{ '--list-min-width': '760px' }}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Roles</Table.Th>
                <Table.Th>Added</Table.Th>
                <Table.Th>Last sign-in</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((u) => (
                <Table.Tr key={u.id} data-testid={`user-${u.email}`}>
                  <Table.Td data-label="Name">
                    {u.first_name} {u.last_name}
                  </Table.Td>
                  <Table.Td data-label="Email">{u.email}</Table.Td>
                  <Table.Td data-label="Roles">{u.roles.join(', ') || '—'}</Table.Td>
                  <Table.Td data-label="Added">{formatDate(u.created_at)}</Table.Td>
                  <Table.Td data-label="Last sign-in">
                    {u.last_login_at ? formatDate(u.last_login_at) : 'Never'}
                  </Table.Td>
                  <Table.Td data-label="Status">
                    <UserStatusBadge status={u.status} />
                  </Table.Td>
                  <Table.Td data-label="Actions">
                    <Button
                      size="xs"
                      variant={u.is_active ? 'light' : 'default'}
                      color={u.is_active ? 'red' : undefined}
                      loading={setActive.isPending && setActive.variables?.id === u.id}
                      onClick={() => setActive.mutate({ id: u.id, is_active: !u.is_active })}
                      aria-label={`${u.is_active ? 'Deactivate' : 'Reactivate'} ${u.email}`}
                    >
                      {u.is_active ? 'Deactivate' : 'Reactivate'}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
        {users.data && rows.length === 0 && <Text size="sm">No users yet.</Text>}
        <Text size="xs" c="dimmed" mt="sm">
          Deactivating a user signs them out at once.
        </Text>
      </Paper>
      <InviteForm customer={customer} />
    </Stack>
  );
}

/** The customer's users: list, invite, deactivate. */
export default function OpsCustomerUsers() {
  return <CustomerFrame>{(c) => <Users customer={c} />}</CustomerFrame>;
}
