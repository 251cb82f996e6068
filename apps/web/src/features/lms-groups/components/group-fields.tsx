import { type LicenceGroupUpdate, licenceGroupUpdate } from '@kestrel/domain';
import { Stack } from '@mantine/core';
import type { Control } from 'react-hook-form';
import type { z } from 'zod';
import {
  CheckboxField,
  type KitFormState,
  TextareaField,
  TextField,
  useKitForm,
} from '../../../components/form-kit';
import { type LicenceGroup, licenceGroups } from '../api';

/** What the add and details forms hold (contract: licenceGroupUpdate). */
export type GroupValues = z.input<typeof licenceGroupUpdate>;

/** The values of a group as its forms start from them (a new one: empty, a draft). */
export function groupValues(g: LicenceGroup | undefined): GroupValues {
  return g
    ? { name: g.name, description: g.description, is_published: g.is_published }
    : { name: '', description: '', is_published: false };
}

/**
 * The form of a licence group (the kit's: the domain's rules in the browser, a 400 on its
 * fields), saved through /api/lms/licence-groups/: a new one, or `group` edited.
 */
export function useGroupForm(
  group: LicenceGroup | undefined,
  onSaved: (saved: LicenceGroup) => void,
): KitFormState<GroupValues, LicenceGroupUpdate> {
  const save = licenceGroups.useSave();
  return useKitForm({
    schema: licenceGroupUpdate,
    defaultValues: groupValues(group),
    submit: (values) => save.mutateAsync({ id: group?.id, values }),
    onSaved,
  });
}

/** A group's fields: name, description, published. */
export function GroupFields({
  control,
}: {
  control: Control<GroupValues, unknown, LicenceGroupUpdate>;
}) {
  return (
    <Stack gap="md">
      <TextField
        control={control}
        name="name"
        label="Name"
        description="For example 'Taxi and private hire'"
        required
      />
      <TextareaField
        size="md"
        control={control}
        name="description"
        label="Description"
        description="What the group covers, shown to the public when it is published"
        autosize
        minRows={3}
        maxRows={10}
      />
      <CheckboxField
        control={control}
        name="is_published"
        label="Published"
        description="Shown on your council's public licensing pages with its published sub-groups"
      />
    </Stack>
  );
}
