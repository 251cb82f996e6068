import { zodResolver } from '@hookform/resolvers/zod';
import { forenameSchema, formatDate, middlenameSchema, surnameSchema } from '@kestrel/domain';
import { Button, Group, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useSubjectProfile } from '../../lib/session/profile';
import { submitProfile } from './submit-profile';

const schema = z.object({
  first_name: forenameSchema,
  middlename: middlenameSchema,
  last_name: surnameSchema,
  dbs_email_notifications: z.boolean(),
});
type Values = z.input<typeof schema>;

/** A subject's own profile. */
export default function SubjectProfilePage() {
  const profile = useSubjectProfile();
  const form = useForm<Values, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    values: {
      first_name: profile?.first_name ?? '',
      middlename: profile?.middlename ?? '',
      last_name: profile?.last_name ?? '',
      dbs_email_notifications: profile?.dbs_email_notifications ?? false,
    },
  });
  if (!profile) return null;
  const { errors, isSubmitting, isDirty } = form.formState;
  const submit = form.handleSubmit((values) =>
    submitProfile<Values>(values, ['first_name', 'middlename', 'last_name'], form.setError),
  );
  return (
    <Stack gap="lg" maw={720}>
      <Title order={1}>Your profile</Title>
      <Paper withBorder radius="lg" p="xl">
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <TextInput
              label="First name"
              required
              error={errors.first_name?.message}
              {...form.register('first_name')}
            />
            <TextInput
              label="Middle names"
              error={errors.middlename?.message}
              {...form.register('middlename')}
            />
            <TextInput
              label="Last name"
              required
              error={errors.last_name?.message}
              {...form.register('last_name')}
            />
            <TextInput label="Email" value={profile.email} readOnly disabled />
            <Text size="sm">Date of birth: {formatDate(profile.dob) || 'not given'}</Text>
            <Switch
              label="Email me when my DBS check progresses"
              {...form.register('dbs_email_notifications')}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
                Save changes
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
