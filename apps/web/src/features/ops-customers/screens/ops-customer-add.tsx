import type { CustomerOut } from '@kestrel/domain';
import { Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { request } from '../../../api/client';
import { href } from '../../../config/paths';
import { notify } from '../../../lib/notify';
import { activityTypeChoices, opsCustomers } from '../api';
import {
  CustomerFields,
  type CustomerFormValues,
  showServerErrors,
} from '../components/customer-fields';

/**
 * A new customer with its first administrator, in one transaction on the server: the
 * administrator gets the set-password email once it is stored.
 */
export default function OpsCustomerAdd() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const types = useQuery(activityTypeChoices());
  const [saving, setSaving] = useState(false);
  const form = useForm<CustomerFormValues>({
    defaultValues: {
      name: '',
      brand: 'kestrel',
      contact_name: '',
      contact_email: '',
      contact_phone: '',
      demo_mode: false,
      is_active: true,
      activity_types: [],
      admin: { first_name: '', last_name: '', email: '' },
    },
  });
  // Every check is offered until ops narrow it.
  useEffect(() => {
    if (types.data && form.getValues('activity_types').length === 0) {
      form.setValue(
        'activity_types',
        types.data.map((t) => t.id),
      );
    }
  }, [types.data, form]);
  const onSubmit = form.handleSubmit(async (v) => {
    setSaving(true);
    const { is_active: _, ...body } = v;
    const r = await request<CustomerOut>('POST', opsCustomers.path, { body, expect: 201 });
    setSaving(false);
    if (!r.ok) {
      if (!(r.status === 400 && showServerErrors(form, r.data))) {
        notify.error('Error adding customer');
      }
      return;
    }
    notify.success(`Customer added; an invitation was sent to ${v.admin.email}`);
    await client.invalidateQueries({ queryKey: opsCustomers.key });
    navigate(href('ops:customer', { id: r.data.id }));
  });
  const errors = form.formState.errors.admin;
  return (
    <Stack gap="lg" maw={900}>
      <Text size="sm">
        <Link to={href('ops:customers')}>← Customers</Link>
      </Text>
      <Title order={1}>Add customer</Title>
      <Paper withBorder radius="lg" p="xl">
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="lg">
            <CustomerFields form={form} />
            <Title order={2} size="h4">
              First administrator
            </Title>
            <Text size="sm" c="dimmed">
              They get an email with a link to choose their password.
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput
                label="First name"
                required
                {...form.register('admin.first_name')}
                error={errors?.first_name?.message}
              />
              <TextInput
                label="Last name"
                required
                {...form.register('admin.last_name')}
                error={errors?.last_name?.message}
              />
              <TextInput
                label="Email"
                type="email"
                required
                {...form.register('admin.email')}
                error={errors?.email?.message}
              />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => navigate(href('ops:customers'))}>
                Cancel
              </Button>
              <Button type="submit" loading={saving}>
                Add customer
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
