import { Alert, Anchor, Stack } from '@mantine/core';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { request } from '../../api/client';
import { href } from '../../config/paths';
import { AuthCard } from './auth-card';
import { NewPasswordForm } from './new-password-form';

/** Choosing a new password from an emailed link; also the set-password page for new users. */
export function TokenPasswordPage({
  title,
  subtitle,
  submitLabel,
}: {
  title: string;
  subtitle: string;
  submitLabel: string;
}) {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [done, setDone] = useState(false);
  return (
    <AuthCard title={title} subtitle={subtitle}>
      {!token ? (
        <Alert color="red" variant="light" role="alert">
          This link is incomplete. Open the link from your email again, or ask for a new one.
        </Alert>
      ) : done ? (
        <Stack gap="md">
          <Alert color="teal" variant="light" role="status">
            Your password is set. You can now sign in.
          </Alert>
        </Stack>
      ) : (
        <NewPasswordForm
          submitLabel={submitLabel}
          onSubmit={async (password) => {
            const r = await request('POST', '/api/accounts/password-reset-confirm/', {
              body: { token, password },
            });
            if (r.ok) setDone(true);
            return r;
          }}
        />
      )}
      <Anchor component={Link} to={href('login')} size="sm">
        Go to sign in
      </Anchor>
    </AuthCard>
  );
}

export default function PasswordResetConfirmPage() {
  return (
    <TokenPasswordPage
      title="Choose a new password"
      subtitle="Pick something you do not use anywhere else."
      submitLabel="Save new password"
    />
  );
}
