import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { KitForm } from '../../../components/form-kit';
import { href } from '../../../config/paths';
import type { LicenceGroup } from '../api';
import { GroupFrame } from '../components/group-frame';
import { SubGroupFields, useSubGroupForm } from '../components/sub-group-fields';

function AddForm({ group }: { group: LicenceGroup }) {
  const navigate = useNavigate();
  const back = () => navigate(href('licence-sub-groups', { id: group.id }));
  const kit = useSubGroupForm(group.id, undefined, (created) =>
    navigate(href('licence-sub-group', { id: group.id, subGroupId: created.id })),
  );
  return (
    <Stack gap="md" maw={880}>
      <Title order={2} size="h3">
        Add sub-group
      </Title>
      <KitForm kit={kit} gap="lg" aria-label="Add sub-group">
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <SubGroupFields control={kit.form.control} />
        </Paper>
        <Group justify="flex-end">
          <Button variant="default" onClick={back}>
            Cancel
          </Button>
          <Button type="submit" loading={kit.saving}>
            Add sub-group
          </Button>
        </Group>
      </KitForm>
    </Stack>
  );
}

/** /licence-groups/{id}/sub-groups/add: a new sub-group of the group; its page opens once added. */
export default function LicenceSubGroupAdd() {
  return <GroupFrame>{(g) => <AddForm group={g} />}</GroupFrame>;
}
