import { formatDate } from '@kestrel/domain';
import {
  Button,
  Group,
  Modal,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { BackToList } from '../../../components/back-to-list';
import { Fact } from '../../../components/fact';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import {
  nameOf,
  roles,
  segmentChoices,
  type User,
  type UserAction,
  users,
  useUserAction,
} from '../api';
import { UserStatusBadge } from '../components/status-badge';

const CONFIRM: Partial<Record<UserAction, { title: string; text: string; button: string }>> = {
  deactivate: {
    title: 'Deactivate',
    text: 'They are signed out at once and can no longer sign in. Their cases and history are kept; you can reactivate them later.',
    button: 'Deactivate',
  },
  'revoke-invitation': {
    title: 'Revoke the invitation of',
    text: 'The link in their email stops working and they are removed from your users.',
    button: 'Revoke invitation',
  },
};

function Actions({ user }: { user: User }) {
  const { can } = useRights();
  const act = useUserAction();
  const navigate = useNavigate();
  const [asking, setAsking] = useState<UserAction | null>(null);
  const run = async (action: UserAction) => {
    try {
      await act.mutateAsync({ id: user.id, action });
    } catch {
      return; // the refusal was shown
    } finally {
      setAsking(null);
    }
    if (action === 'revoke-invitation') navigate(href('users'));
  };
  const confirm = asking ? CONFIRM[asking] : undefined;
  return (
    <Group gap="sm">
      {can('users.change_productuser') && (
        <Button component={Link} to={href('user-edit', { id: user.id })} variant="default">
          Edit
        </Button>
      )}
      {user.status === 'invited' && can('users.add_productuser') && (
        <Button
          variant="light"
          loading={act.isPending}
          onClick={() => void run('resend-invitation')}
        >
          Resend invitation
        </Button>
      )}
      {user.status === 'invited' && can('users.delete_productuser') && (
        <Button variant="light" color="red" onClick={() => setAsking('revoke-invitation')}>
          Revoke invitation
        </Button>
      )}
      {user.status !== 'deactivated' && can('users.change_productuser') && (
        <Button variant="light" color="red" onClick={() => setAsking('deactivate')}>
          Deactivate
        </Button>
      )}
      {user.status === 'deactivated' && can('users.change_productuser') && (
        <Button variant="light" loading={act.isPending} onClick={() => void run('reactivate')}>
          Reactivate
        </Button>
      )}
      <Modal
        opened={confirm !== undefined}
        onClose={() => setAsking(null)}
        title={confirm ? `${confirm.title} ${nameOf(user)}?` : ''}
      >
        <Stack gap="md">
          <Text size="sm">{confirm?.text}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsking(null)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={act.isPending}
              onClick={() => {
                if (asking) void run(asking);
              }}
            >
              {confirm?.button}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}

function Details({ user }: { user: User }) {
  const roleList = roles.useList({ page_size: 100 });
  const segmentList = segmentChoices.useList({ page_size: 100 });
  const roleNames = (roleList.data?.results ?? []).filter((r) => user.roles.includes(r.id));
  const segmentNames = (segmentList.data?.results ?? []).filter((s) =>
    user.segments.includes(s.id),
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
      <Paper withBorder radius="lg" p="xl">
        <Stack gap="md">
          <Title order={2} size="h4">
            Details
          </Title>
          <Fact label="Email">{user.email}</Fact>
          <Fact label="Job title">{user.job_title}</Fact>
          <Fact label="Status">
            <UserStatusBadge status={user.status} />
          </Fact>
          <Fact label="Last sign-in">
            {user.last_login_at ? formatDate(user.last_login_at) : 'Never signed in'}
          </Fact>
          <Fact label="Two-factor sign-in">{user.totp_enabled ? 'Set up' : 'Not set up'}</Fact>
          <Fact label="Added">{formatDate(user.created_at)}</Fact>
        </Stack>
      </Paper>
      <Paper withBorder radius="lg" p="xl">
        <Stack gap="md">
          <Title order={2} size="h4">
            Access
          </Title>
          <Fact label="Roles">{roleNames.map((r) => r.name).join(', ') || 'No roles'}</Fact>
          <Fact label="Segments">
            {segmentNames.map((s) => s.name).join(', ') || 'The whole organisation'}
          </Fact>
        </Stack>
      </Paper>
    </SimpleGrid>
  );
}

/** /users/{id}: a user's details, roles, segments, status, last sign-in and actions. */
export default function UserPage() {
  const { id = '' } = useParams();
  const query = users.useItem(id);
  const user = query.data;
  return (
    <Stack gap="lg">
      <BackToList path={href('users')} label="All users" />
      <Group justify="space-between" align="flex-start">
        <Title order={1}>{user ? nameOf(user) : query.isError ? 'User' : '…'}</Title>
        {user && <Actions user={user} />}
      </Group>
      {user ? <Details user={user} /> : !query.isError && <Skeleton h={240} radius="lg" />}
    </Stack>
  );
}
