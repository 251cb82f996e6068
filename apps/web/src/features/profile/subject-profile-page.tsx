import { zodResolver } from '@hookform/resolvers/zod';
import {
  forenameSchema,
  formatDate,
  MESSAGES,
  middlenameSchema,
  phoneOrBlankSchema,
  surnameSchema,
} from '@kestrel/domain';
import {
  Anchor,
  Button,
  Group,
  Paper,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  useMantineColorScheme,
} from '@mantine/core';
import { Controller, type FieldErrors, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { DateSelector } from '../../components/date-selector';
import { ErrorSummary, type SummaryError } from '../../components/form-kit';
import { PhoneField } from '../../components/phone-field';
import { href } from '../../config/paths';
import { useSubjectProfile } from '../../lib/session/profile';
import { YourDataSection } from '../data-requests';
import { submitProfile } from './submit-profile';

const schema = z.object({
  first_name: forenameSchema,
  middlename: middlenameSchema,
  last_name: surnameSchema,
  phone_number: phoneOrBlankSchema,
  dob: z.string({ error: MESSAGES.required }).nullable(),
  dark_mode: z.boolean(),
  dbs_email_notifications: z.boolean(),
});
type Values = z.input<typeof schema>;

const LABELS: Record<keyof Values, string> = {
  first_name: 'First name',
  middlename: 'Middle names',
  last_name: 'Last name',
  phone_number: 'Phone number',
  dob: 'Date of birth',
  dark_mode: 'Dark mode',
  dbs_email_notifications: 'Emails',
};
const FIELDS = Object.keys(LABELS) as (keyof Values)[];

/** The form's errors, in the form's order, for the summary at the top. */
export function summaryOf(errors: FieldErrors<Values>): SummaryError[] {
  return FIELDS.flatMap((f) => {
    const message = errors[f]?.message;
    return typeof message === 'string'
      ? [{ field: `profile-${f}`, message: `${LABELS[f]}: ${message}` }]
      : [];
  });
}

/**
 * A subject's own profile (spec point 3). The date of birth can be changed only while
 * `can_change_dob` holds (before a check has used it); the email is the sign-in name.
 */
export default function SubjectProfilePage() {
  const profile = useSubjectProfile();
  const { setColorScheme } = useMantineColorScheme();
  const form = useForm<Values, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    values: {
      first_name: profile?.first_name ?? '',
      middlename: profile?.middlename ?? '',
      last_name: profile?.last_name ?? '',
      phone_number: profile?.phone_number ?? '',
      dob: profile?.dob ?? null,
      dark_mode: profile?.dark_mode ?? false,
      dbs_email_notifications: profile?.dbs_email_notifications ?? false,
    },
  });
  if (!profile) return null;
  const { errors, isSubmitting, isDirty } = form.formState;
  const submit = form.handleSubmit(async ({ dob, ...values }) => {
    const changes = profile.can_change_dob && dob ? { ...values, dob } : values;
    await submitProfile<Values>(
      changes,
      ['first_name', 'middlename', 'last_name', 'phone_number', 'dob'],
      form,
    );
    setColorScheme(values.dark_mode ? 'dark' : 'light');
  });
  const reconsents = profile.dvla_reconsents.length;
  return (
    <Stack gap="lg" maw={720}>
      <Title order={1}>Your profile</Title>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <ErrorSummary errors={summaryOf(errors)} />
            <TextInput
              id="profile-first_name"
              label="First name"
              required
              autoComplete="given-name"
              error={errors.first_name?.message}
              {...form.register('first_name')}
            />
            <TextInput
              id="profile-middlename"
              label="Middle names"
              autoComplete="additional-name"
              error={errors.middlename?.message}
              {...form.register('middlename')}
            />
            <TextInput
              id="profile-last_name"
              label="Last name"
              required
              autoComplete="family-name"
              error={errors.last_name?.message}
              {...form.register('last_name')}
            />
            <TextInput
              label="Email"
              description="You sign in with this address."
              value={profile.email}
              readOnly
            />
            <PhoneField
              id="profile-phone_number"
              error={errors.phone_number?.message}
              {...form.register('phone_number')}
            />
            {profile.can_change_dob ? (
              <div id="profile-dob">
                <Controller
                  control={form.control}
                  name="dob"
                  render={({ field }) => (
                    <DateSelector
                      label="Date of birth"
                      value={field.value}
                      onChange={field.onChange}
                      error={errors.dob?.message}
                    />
                  )}
                />
              </div>
            ) : (
              <Stack gap={0} data-testid="dob-locked">
                <Text fw={500} size="sm">
                  Date of birth
                </Text>
                <Text>{formatDate(profile.dob) || 'Not given'}</Text>
                <Text size="sm" c="dimmed">
                  Your date of birth has been used in a check, so it can no longer be changed here.
                  Contact us if it is wrong.
                </Text>
              </Stack>
            )}
            <Switch
              size="md"
              label="Email me when my DBS check progresses"
              {...form.register('dbs_email_notifications')}
            />
            <Switch size="md" label="Dark mode" {...form.register('dark_mode')} />
            <Group justify="flex-end">
              <Button type="submit" size="md" mih={44} loading={isSubmitting} disabled={!isDirty}>
                Save changes
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="xs">
          <Title order={2} size="h4">
            Agreements
          </Title>
          <Text>
            {profile.terms_agreed_at
              ? `You agreed to the terms of use on ${formatDate(profile.terms_agreed_at)}.`
              : 'You have not agreed to the terms of use yet.'}
          </Text>
          <Text>
            {reconsents === 0
              ? 'You have not renewed a driving licence consent.'
              : `You have renewed your driving licence consent ${reconsents === 1 ? 'once' : `${reconsents} times`}.`}{' '}
            <Anchor component={Link} to={href('s:consents')}>
              See your consents
            </Anchor>
          </Text>
        </Stack>
      </Paper>
      <YourDataSection />
    </Stack>
  );
}
