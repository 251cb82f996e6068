import type { RegistrationResultOut } from '@kestrel/domain';
import { Button, Stack, Text } from '@mantine/core';
import { ApiFailure } from '../../../api/resource';
import {
  DateField,
  EmailField,
  KitForm,
  PhoneNumberField,
  TextField,
  useKitForm,
} from '../../../components/form-kit';
import { type PublicPortal, register } from '../api';
import {
  emptyRegistration,
  type RegistrationOutput,
  type RegistrationValues,
  registrationSchema,
} from './registration-schema';

const today = () => new Date().toISOString().slice(0, 10);
const yearsAgo = (n: number) => {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - n);
  return d.toISOString().slice(0, 10);
};

/** The throttled answer (429) in words: registrations are limited per address and per portal. */
export const TOO_MANY = 'Too many registrations have been made from here. Try again later.';

/**
 * The registration form: names, then email, date of birth and phone as the portal asks them
 * (the domain's text rules in the browser, the server's 400 on the fields).
 */
export function RegistrationForm({
  portal,
  apiPath,
  onRegistered,
}: {
  portal: PublicPortal;
  apiPath: string;
  onRegistered: (result: RegistrationResultOut, email: string) => void;
}) {
  const kit = useKitForm<RegistrationValues, RegistrationOutput, [RegistrationResultOut, string]>({
    schema: registrationSchema(portal),
    defaultValues: emptyRegistration,
    submit: async (values) => {
      const r = await register(apiPath, values);
      if (r.ok) return [r.data, values.email];
      const detail = typeof r.data.detail === 'string' ? r.data.detail : null;
      throw new ApiFailure(r.status, r.data, r.status === 429 ? TOO_MANY : detail);
    },
    onSaved: ([result, email]) => onRegistered(result, email),
    failureText: 'Your registration could not be sent. Try again.',
  });
  const ctl = kit.form.control;
  const optional = (label: string, mode: string) =>
    mode === 'optional' ? `${label} (optional)` : label;
  return (
    <KitForm kit={kit} gap="lg" aria-label="Your details">
      <TextField
        control={ctl}
        name="first_name"
        label="First name"
        autoComplete="given-name"
        size="lg"
        required
      />
      <TextField
        control={ctl}
        name="last_name"
        label="Last name"
        autoComplete="family-name"
        size="lg"
        required
      />
      <EmailField
        control={ctl}
        name="email"
        label="Email address"
        description="We will send you a link to confirm it"
        size="lg"
        required
      />
      {portal.ask_dob !== 'hidden' && (
        <DateField
          control={ctl}
          name="dob"
          label={optional('Date of birth', portal.ask_dob)}
          required={portal.ask_dob === 'required'}
          min={yearsAgo(100)}
          max={today()}
        />
      )}
      {portal.ask_phone !== 'hidden' && (
        <PhoneNumberField
          control={ctl}
          name="phone"
          label={optional('Phone number', portal.ask_phone)}
          size="lg"
          required={portal.ask_phone === 'required'}
        />
      )}
      <Stack gap="xs">
        <Button type="submit" size="lg" fullWidth loading={kit.saving}>
          Continue
        </Button>
        <Text size="sm" c="dimmed">
          {portal.customer_name} uses {portal.brand} to run your checks.
        </Text>
      </Stack>
    </KitForm>
  );
}
