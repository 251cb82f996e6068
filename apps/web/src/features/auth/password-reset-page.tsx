import { zodResolver } from '@hookform/resolvers/zod';
import type { DetailOut } from '@kestrel/domain';
import { emailSchema } from '@kestrel/domain';
import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { request } from '../../api/client';
import { failureMessage } from '../../api/messages';
import { href } from '../../config/paths';
import { AuthCard } from './auth-card';

const schema = z.object({ email: emailSchema });
type Values = z.infer<typeof schema>;

export default function PasswordResetPage() {
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { email: '' },
  });
  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    const r = await request<DetailOut>('POST', '/api/accounts/password-reset/', {
      body: values,
    });
    if (r.ok) {
      setSent(r.data?.detail ?? 'If an account uses that address, we have emailed a reset link.');
    } else {
      setError(failureMessage(r, { showBackendErrors: true }));
    }
  });
  return (
    <AuthCard
      title="Reset your password"
      subtitle="We will email you a link to choose a new password."
    >
      {sent ? (
        <Alert color="teal" variant="light" role="status">
          {sent}
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            {error && (
              <Alert color="red" variant="light" role="alert" style={{ whiteSpace: 'pre-line' }}>
                {error}
              </Alert>
            )}
            <TextInput
              label="Email"
              type="email"
              autoComplete="email"
              required
              error={formState.errors.email?.message}
              {...register('email')}
            />
            <Button type="submit" fullWidth size="md" loading={formState.isSubmitting}>
              Send reset link
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to={href('login')} size="sm">
        Back to sign in
      </Anchor>
    </AuthCard>
  );
}
