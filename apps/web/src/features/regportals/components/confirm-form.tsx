import { REGISTRATION_MESSAGES, registrationConfirm } from '@kestrel/domain';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { z } from 'zod';
import { ApiFailure } from '../../../api/resource';
import { KitForm, PasswordField, useKitForm } from '../../../components/form-kit';
import { confirmRegistration } from '../api';

const schema = z
  .object({ password: registrationConfirm.shape.password, confirm: z.string() })
  .refine((v) => v.password === v.confirm, {
    path: ['confirm'],
    message: 'Passwords do not match',
  });
type Values = z.input<typeof schema>;

/**
 * The emailed link's page: the person chooses a password, which confirms the email and signs
 * them in; `onConfirmed` gets where they go next (the payment portal, or their case portal).
 * A link the server no longer knows (used, expired) says so instead of the form.
 */
export function ConfirmForm({
  apiPath,
  token,
  onConfirmed,
}: {
  apiPath: string;
  token: string;
  onConfirmed: (nextUrl: string | null) => Promise<void>;
}) {
  const [invalid, setInvalid] = useState<string | null>(null);
  const kit = useKitForm<Values, z.output<typeof schema>, string | null>({
    schema,
    defaultValues: { password: '', confirm: '' },
    submit: async ({ password }) => {
      const r = await confirmRegistration(apiPath, { token, password });
      if (r.ok) return r.data.next_url;
      const tokenError = r.data.token;
      if (r.status === 400 && tokenError !== undefined) {
        setInvalid(REGISTRATION_MESSAGES.invalidToken);
        throw new ApiFailure(r.status, {}, REGISTRATION_MESSAGES.invalidToken);
      }
      const detail = typeof r.data.detail === 'string' ? r.data.detail : null;
      throw new ApiFailure(r.status, r.data, r.status === 400 ? null : detail);
    },
    onSaved: (next) => void onConfirmed(next),
    failureText: 'Your email could not be confirmed. Try again.',
  });
  if (invalid) {
    return (
      <Alert color="red" variant="light" role="alert" title="This link cannot be used">
        <Text size="sm">{invalid}</Text>
        <Text size="sm" mt="xs">
          Register again from the start to receive a new link.
        </Text>
      </Alert>
    );
  }
  return (
    <KitForm kit={kit} gap="lg" aria-label="Choose a password">
      <PasswordField
        control={kit.form.control}
        name="password"
        label="Password"
        description="At least 12 characters."
        autoComplete="new-password"
        size="lg"
        required
      />
      <PasswordField
        control={kit.form.control}
        name="confirm"
        label="Confirm password"
        autoComplete="new-password"
        size="lg"
        required
      />
      <Stack gap="xs">
        <Button type="submit" size="lg" fullWidth loading={kit.saving}>
          Confirm and continue
        </Button>
      </Stack>
    </KitForm>
  );
}
