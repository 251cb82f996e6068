import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { KitForm } from '../../../components/form-kit';
import { href } from '../../../config/paths';
import { GroupFields, useGroupForm } from '../components/group-fields';

/** /licence-groups/add: a new licence group; its page opens once added. */
export default function LicenceGroupAdd() {
  const navigate = useNavigate();
  const kit = useGroupForm(undefined, (created) =>
    navigate(href('licence-group', { id: created.id })),
  );
  return (
    <Stack gap="lg" maw={880}>
      <Title order={1}>Add licence group</Title>
      <KitForm kit={kit} gap="lg" aria-label="Add licence group">
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <GroupFields control={kit.form.control} />
        </Paper>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => navigate(href('licence-groups'))}>
            Cancel
          </Button>
          <Button type="submit" loading={kit.saving}>
            Add licence group
          </Button>
        </Group>
      </KitForm>
    </Stack>
  );
}
