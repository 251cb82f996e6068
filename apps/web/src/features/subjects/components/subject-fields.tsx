import { SimpleGrid, Stack, TextInput } from '@mantine/core';
import { Controller, type UseFormReturn } from 'react-hook-form';
import type { SubjectInput, SubjectValues } from '../../../api/subjects';
import { DateSelector } from '../../../components/date-selector';
import { PhoneField } from '../../../components/phone-field';

/** The subject profile inputs (spec point 3). */
export function SubjectFields({
  form,
}: {
  form: UseFormReturn<SubjectInput, unknown, SubjectValues>;
}) {
  const { errors } = form.formState;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <TextInput
          label="First name"
          required
          error={errors.first_name?.message}
          {...form.register('first_name')}
        />
        <TextInput
          label="Middle name"
          error={errors.middlename?.message}
          {...form.register('middlename')}
        />
        <TextInput
          label="Last name"
          required
          error={errors.last_name?.message}
          {...form.register('last_name')}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextInput
          label="Email"
          type="email"
          required
          error={errors.email?.message}
          {...form.register('email')}
        />
        <PhoneField error={errors.phone_number?.message} {...form.register('phone_number')} />
      </SimpleGrid>
      <Controller
        control={form.control}
        name="dob"
        render={({ field, fieldState }) => (
          <DateSelector
            label="Date of birth"
            required={false}
            value={typeof field.value === 'string' ? field.value : null}
            onChange={(v) => field.onChange(v ?? '')}
            error={fieldState.error?.message}
          />
        )}
      />
    </Stack>
  );
}
