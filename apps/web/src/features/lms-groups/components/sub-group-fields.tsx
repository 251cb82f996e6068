import { type LicenceSubGroupUpdate, licenceSubGroupUpdate } from '@kestrel/domain';
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
import { type LicenceSubGroup, licenceSubGroups } from '../api';

/** What the add and edit forms hold (contract: licenceSubGroupUpdate). */
export type SubGroupValues = z.input<typeof licenceSubGroupUpdate>;

/** The values of a sub-group as its forms start from them (a new one: empty, a draft). */
export function subGroupValues(s: LicenceSubGroup | undefined): SubGroupValues {
  return s
    ? { name: s.name, code: s.code, description: s.description, is_published: s.is_published }
    : { name: '', code: '', description: '', is_published: false };
}

/**
 * The form of a sub-group, saved through /api/lms/licence-sub-groups/: a new one of `groupId`
 * (the group goes with the values), or `subGroup` edited (its group does not change).
 */
export function useSubGroupForm(
  groupId: number,
  subGroup: LicenceSubGroup | undefined,
  onSaved: (saved: LicenceSubGroup) => void,
): KitFormState<SubGroupValues, LicenceSubGroupUpdate> {
  const save = licenceSubGroups.useSave();
  return useKitForm({
    schema: licenceSubGroupUpdate,
    defaultValues: subGroupValues(subGroup),
    submit: (values) =>
      save.mutateAsync(
        subGroup ? { id: subGroup.id, values } : { values: { ...values, group: groupId } },
      ),
    onSaved,
  });
}

/** A sub-group's fields: name, code (the {CODE} of its licence numbers), description, published. */
export function SubGroupFields({
  control,
}: {
  control: Control<SubGroupValues, unknown, LicenceSubGroupUpdate>;
}) {
  return (
    <Stack gap="md">
      <TextField
        control={control}
        name="name"
        label="Name"
        description="For example 'Hackney carriage driver'"
        required
      />
      <TextField
        control={control}
        name="code"
        label="Code"
        description="1 to 10 letters or digits, used in its licence numbers (HCD in HCD/2026/00001)"
        transform={(v) => v.toUpperCase()}
        styles={{ input: { maxWidth: 240 } }}
        required
      />
      <TextareaField
        size="md"
        control={control}
        name="description"
        label="Description"
        description="Who needs this licence, shown to the public when it is published"
        autosize
        minRows={3}
        maxRows={10}
      />
      <CheckboxField
        control={control}
        name="is_published"
        label="Published"
        description="Shown on your council's public pages when its group is published too"
      />
    </Stack>
  );
}
