import { type CustomerOut, formatPhone } from '@kestrel/domain';
import { Button, Checkbox, Group, Paper, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { request } from '../../../api/client';
import { notify } from '../../../lib/notify';
import { opsCustomers } from '../api';
import {
  CustomerFields,
  type CustomerFormValues,
  showServerErrors,
} from '../components/customer-fields';
import { CustomerFrame } from '../components/customer-frame';

function EditForm({ customer }: { customer: CustomerOut }) {
  const client = useQueryClient();
  const [saving, setSaving] = useState(false);
  const form = useForm<CustomerFormValues>({
    defaultValues: {
      name: customer.name,
      brand: customer.brand,
      contact_name: customer.contact_name,
      contact_email: customer.contact_email,
      contact_phone: formatPhone(customer.contact_phone),
      demo_mode: customer.demo_mode,
      is_active: customer.is_active,
      activity_types: customer.activity_types,
      admin: { first_name: '', last_name: '', email: '' },
    },
  });
  const onSubmit = form.handleSubmit(async (v) => {
    setSaving(true);
    const { admin: _, ...body } = v;
    const r = await request<CustomerOut>('PATCH', `${opsCustomers.path}${customer.id}/`, {
      body,
    });
    setSaving(false);
    if (!r.ok) {
      if (!(r.status === 400 && showServerErrors(form, r.data))) {
        notify.error('Error updating customer');
      }
      return;
    }
    notify.success('Successfully updated customer');
    await client.invalidateQueries({ queryKey: opsCustomers.key });
  });
  return (
    <Paper withBorder radius="lg" p="xl" maw={900}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="lg">
          <CustomerFields form={form} />
          <Text size="xs" c="dimmed">
            A check switched off can no longer be ordered; its past cases keep it.
          </Text>
          <Controller
            control={form.control}
            name="is_active"
            render={({ field }) => (
              <Checkbox
                label="Active (its people can sign in and order checks)"
                checked={field.value}
                onChange={(e) => field.onChange(e.currentTarget.checked)}
              />
            )}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={saving}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** Name, brand, contact, demo mode, the checks it may order, and active. */
export default function OpsCustomerEdit() {
  return <CustomerFrame>{(c) => <EditForm key={c.id} customer={c} />}</CustomerFrame>;
}
