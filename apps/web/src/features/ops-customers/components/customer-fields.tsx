import { Checkbox, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Controller, type Path, type UseFormReturn } from 'react-hook-form';
import type { ApiErrorBody } from '../../../api/client';
import { PhoneField } from '../../../components/phone-field';
import { activityTypeChoices, BRAND_NAMES } from '../api';

/** The values of the add and edit forms (edit leaves `admin` out of what it sends). */
export interface CustomerFormValues {
  name: string;
  brand: 'kestrel' | 'harrier';
  contact_name: string;
  contact_email: string;
  contact_phone: string;
  demo_mode: boolean;
  is_active: boolean;
  activity_types: number[];
  admin: { first_name: string; last_name: string; email: string };
}

const FIELDS: Path<CustomerFormValues>[] = [
  'name',
  'brand',
  'contact_name',
  'contact_email',
  'contact_phone',
  'activity_types',
  'admin.first_name',
  'admin.last_name',
  'admin.email',
];

/**
 * A 400's field errors onto the form: the server's keys are the form's paths ('admin.email'
 * included; the server applies the domain's rules, the same the other forms show).
 */
export function showServerErrors(
  form: UseFormReturn<CustomerFormValues>,
  body: ApiErrorBody,
): boolean {
  let shown = false;
  for (const [key, value] of Object.entries(body)) {
    const field = FIELDS.find((f) => f === key || key.startsWith(`${f}.`));
    const message = Array.isArray(value) ? String(value[0]) : null;
    if (field && message) {
      form.setError(field, { message });
      shown = true;
    }
  }
  return shown;
}

const brandOptions = Object.entries(BRAND_NAMES).map(([value, label]) => ({ value, label }));

export function CustomerFields({ form }: { form: UseFormReturn<CustomerFormValues> }) {
  const types = useQuery(activityTypeChoices());
  const reg = form.register;
  const ctl = form.control;
  const errors = form.formState.errors;
  return (
    <Stack gap="md">
      <TextInput label="Name" required {...reg('name')} error={errors.name?.message} />
      <Controller
        control={ctl}
        name="brand"
        render={({ field }) => (
          <Select
            label="Brand"
            description="What the customer's people and subjects see (logo, colours, emails)"
            data={brandOptions}
            value={field.value}
            onChange={(v) => field.onChange(v ?? 'kestrel')}
            allowDeselect={false}
            error={errors.brand?.message}
          />
        )}
      />
      <Title order={2} size="h4">
        Contact
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Contact name"
          {...reg('contact_name')}
          error={errors.contact_name?.message}
        />
        <TextInput
          label="Contact email"
          type="email"
          {...reg('contact_email')}
          error={errors.contact_email?.message}
        />
      </SimpleGrid>
      <PhoneField
        label="Contact phone"
        {...reg('contact_phone')}
        error={errors.contact_phone?.message}
      />
      <Controller
        control={ctl}
        name="demo_mode"
        render={({ field }) => (
          <Checkbox
            label="Demo mode (no real checks are ordered)"
            checked={field.value}
            onChange={(e) => field.onChange(e.currentTarget.checked)}
          />
        )}
      />
      {
        <Controller
          control={ctl}
          name="activity_types"
          render={({ field }) => (
            <Checkbox.Group
              label="Checks it may order"
              value={(field.value ?? []).map(String)}
              onChange={(v) => field.onChange(v.map(Number))}
              error={errors.activity_types?.message}
            >
              {types.isPending ? (
                <Text size="sm">Loading…</Text>
              ) : (
                <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs">
                  {(types.data ?? []).map((t) => (
                    <Checkbox key={t.id} value={String(t.id)} label={t.name} />
                  ))}
                </SimpleGrid>
              )}
            </Checkbox.Group>
          )}
        />
      }
    </Stack>
  );
}
