import { zodResolver } from '@hookform/resolvers/zod';
import { productProfileUpdate } from '@kestrel/domain';
import { Badge, Button, Group, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { href } from '../../config/paths';
import { useProductProfile } from '../../lib/session/profile';
import { submitProfile } from './submit-profile';

/** The fields of PUT /api/user/ this form edits, with the server's rules (productProfileUpdate). */
const schema = productProfileUpdate
  .pick({ first_name: true, last_name: true, job_title: true, notifications: true })
  .required();
type Values = z.infer<typeof schema>;

/** The product user's own profile, and the way to two-factor set-up. */
export default function ProfilePage() {
  const profile = useProductProfile();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    values: {
      first_name: profile?.first_name ?? '',
      last_name: profile?.last_name ?? '',
      job_title: profile?.job_title ?? '',
      notifications: profile?.notifications ?? false,
    },
  });
  if (!profile) return null;
  const { errors, isSubmitting, isDirty } = form.formState;
  const submit = form.handleSubmit((values) =>
    submitProfile<Values>(values, ['first_name', 'last_name', 'job_title'], form),
  );
  return (
    <Stack gap="lg" maw={720}>
      <Title order={1}>Your profile</Title>
      <Paper withBorder radius="lg" p="xl">
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Group grow align="flex-start">
              <TextInput
                label="First name"
                required
                error={errors.first_name?.message}
                {...form.register('first_name')}
              />
              <TextInput
                label="Last name"
                required
                error={errors.last_name?.message}
                {...form.register('last_name')}
              />
            </Group>
            <TextInput
              label="Job title"
              error={errors.job_title?.message}
              {...form.register('job_title')}
            />
            <TextInput label="Email" value={profile.username} readOnly disabled />
            <Switch
              label="Email me about activity on my cases"
              {...form.register('notifications')}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
                Save changes
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <Paper withBorder radius="lg" p="xl">
        <Group justify="space-between" align="center">
          <Stack gap={4}>
            <Group gap="xs">
              <Text fw={650}>Two-factor authentication</Text>
              <Badge color={profile.totp_enabled ? 'teal' : 'gray'} variant="light">
                {profile.totp_enabled ? 'On' : 'Off'}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              A code from an authenticator app each time you sign in.
            </Text>
          </Stack>
          {profile.totp_enabled ? (
            <Button variant="default" component={Link} to={href('profile-totp-remove')}>
              Turn off
            </Button>
          ) : (
            <Button component={Link} to={href('profile-totp')}>
              Set up
            </Button>
          )}
        </Group>
      </Paper>
    </Stack>
  );
}
