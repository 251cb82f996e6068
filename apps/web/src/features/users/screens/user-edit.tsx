import { Button, Group, Paper, Skeleton, Stack, Title } from '@mantine/core';
import { useNavigate, useParams } from 'react-router';
import { BackToList } from '../../../components/back-to-list';
import { KitForm } from '../../../components/form-kit';
import { href } from '../../../config/paths';
import { nameOf, type User, users } from '../api';
import { UserFields, useUserForm } from '../components/user-form';

function EditForm({ user }: { user: User }) {
  const navigate = useNavigate();
  const back = () => navigate(href('user', { id: user.id }));
  const kit = useUserForm(user, back);
  return (
    <KitForm kit={kit} gap="lg" aria-label="Edit user">
      <Paper withBorder radius="lg" p="xl">
        <UserFields control={kit.form.control} editing held={user.roles} />
      </Paper>
      <Group justify="flex-end">
        <Button variant="default" onClick={back}>
          Cancel
        </Button>
        <Button type="submit" loading={kit.saving}>
          Save changes
        </Button>
      </Group>
    </KitForm>
  );
}

/** /users/{id}/edit: names, job title, roles and segments. */
export default function UserEdit() {
  const { id = '' } = useParams();
  const query = users.useItem(id);
  const user = query.data;
  return (
    <Stack gap="lg" maw={880}>
      <BackToList path={href('users')} label="All users" />
      <Title order={1}>{user ? `Edit ${nameOf(user)}` : 'Edit user'}</Title>
      {user ? <EditForm user={user} /> : <Skeleton h={320} radius="lg" />}
    </Stack>
  );
}
