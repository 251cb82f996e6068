import { LICENCE_DURATION_MAX, LICENCE_DURATION_MIN } from '@kestrel/domain';
import { Select, SimpleGrid, Stack } from '@mantine/core';
import { type Control, type FieldValues, useController } from 'react-hook-form';
import {
  type Bound,
  CheckboxField,
  TextareaField,
  TextField,
  useFieldLabel,
} from '../../../components/form-kit';
import { subGroups } from '../api';
import { PoundsField, WholeNumberField } from './number-fields';

/** The sub-group a new definition sits in ('Taxi and private hire › Private hire driver'). */
export function SubGroupField<T extends FieldValues, O>({ control, name }: Bound<T, O>) {
  const label = 'Sub-group';
  const { field, fieldState } = useController({ control, name });
  useFieldLabel(name, label);
  const list = subGroups.useList({ page_size: 100 });
  const options = (list.data?.results ?? []).map((s) => ({
    value: String(s.id),
    label: `${s.group_name} › ${s.name}`,
  }));
  return (
    <Select
      id={name}
      ref={field.ref}
      name={field.name}
      label={label}
      description="The licence group and sub-group this licence belongs to"
      placeholder={list.isPending ? 'Loading…' : 'Choose a sub-group'}
      required
      size="md"
      searchable
      allowDeselect={false}
      nothingFoundMessage="No sub-group has that name"
      data={options}
      value={typeof field.value === 'number' ? String(field.value) : null}
      onChange={(v) => field.onChange(v ? Number(v) : undefined)}
      onBlur={field.onBlur}
      error={fieldState.error?.message}
    />
  );
}

/** A definition's own fields: name, description, duration, fee, published. */
export function DefinitionFields<T extends FieldValues, O>({
  control,
}: {
  control: Control<T, unknown, O>;
}) {
  const at = (n: string) => n as Bound<T, O>['name'];
  return (
    <Stack gap="md">
      <TextField
        control={control}
        name={at('name')}
        label="Name"
        description="What the licence is called, e.g. 'Private hire driver licence (3 years)'"
        required
        size="md"
      />
      <TextareaField
        control={control}
        name={at('description')}
        label="Description"
        autosize
        minRows={2}
        size="md"
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <WholeNumberField
          control={control}
          name={at('duration_years')}
          label="Duration in years"
          description={`How long a licence lasts: ${LICENCE_DURATION_MIN} to ${LICENCE_DURATION_MAX} years`}
          min={LICENCE_DURATION_MIN}
          max={LICENCE_DURATION_MAX}
          required
        />
        <PoundsField
          control={control}
          name={at('fee_pence')}
          label="Fee"
          description="In pounds; portals may charge their own fee"
          required
        />
      </SimpleGrid>
      <CheckboxField
        control={control}
        name={at('is_published')}
        label="Published"
        description="Shown on the council's public licensing pages with its open portals"
      />
    </Stack>
  );
}
