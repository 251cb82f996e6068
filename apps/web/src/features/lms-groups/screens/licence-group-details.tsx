import { Button, Group, Paper } from '@mantine/core';
import { KitForm } from '../../../components/form-kit';
import type { LicenceGroup } from '../api';
import { GroupFields, groupValues, useGroupForm } from '../components/group-fields';
import { GroupFrame } from '../components/group-frame';

function DetailsForm({ group }: { group: LicenceGroup }) {
  const kit = useGroupForm(group, (saved) => kit.form.reset(groupValues(saved)));
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} maw={880}>
      <KitForm kit={kit} gap="lg" aria-label="Licence group details">
        <GroupFields control={kit.form.control} />
        <Group justify="flex-end">
          <Button type="submit" loading={kit.saving} disabled={!kit.form.formState.isDirty}>
            Save changes
          </Button>
        </Group>
      </KitForm>
    </Paper>
  );
}

/** /licence-groups/{id}/details: the group's name, description and published state, edited. */
export default function LicenceGroupDetails() {
  return <GroupFrame>{(g) => <DetailsForm group={g} />}</GroupFrame>;
}
