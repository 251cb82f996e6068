import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { KitForm } from '../../../components/form-kit';
import { href } from '../../../config/paths';
import { UserFields, useUserForm } from '../components/user-form';

/** /users/add: invite a colleague by email (the claim link in the organisation's brand). */
export default function UserAdd() {
  const navigate = useNavigate();
  const kit = useUserForm(undefined, (u) => navigate(href('user', { id: u.id })));
  return (
    <Stack gap="lg" maw={880}>
      <Stack gap={4}>
        <Title order={1}>Add user</Title>
        <Text size="sm" c="dimmed">
          They receive an email with a link to choose their password. The link works once, for seven
          days.
        </Text>
      </Stack>
      <KitForm kit={kit} gap="lg" aria-label="Add user">
        <Paper withBorder radius="lg" p="xl">
          <UserFields control={kit.form.control} editing={false} />
        </Paper>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => navigate(href('users'))}>
            Cancel
          </Button>
          <Button type="submit" loading={kit.saving}>
            Send invitation
          </Button>
        </Group>
      </KitForm>
    </Stack>
  );
}
