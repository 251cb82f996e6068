import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { request } from '../../api/client';
import { href } from '../../config/paths';
import { notify } from '../../lib/notify';
import { replaceProfile, useProductProfile } from '../../lib/session/profile';
import type { Profile } from '../../lib/session/types';
import { TotpCodeForm } from './totp-code-form';

/** Turning two-factor off needs a current code. */
export default function TotpRemovePage() {
  const profile = useProductProfile();
  const navigate = useNavigate();
  return (
    <Stack gap="lg" maw={640}>
      <Title order={1}>Turn off two-factor authentication</Title>
      <Paper withBorder radius="lg" p="xl">
        {profile && !profile.totp_enabled ? (
          <Alert color="blue" variant="light">
            Two-factor authentication is already off.
          </Alert>
        ) : (
          <Stack gap="md">
            <Text>
              Your account will be protected by your password only. Enter a code from your
              authenticator app to confirm.
            </Text>
            <TotpCodeForm
              danger
              submitLabel="Turn off two-factor"
              onSubmit={async (totp) => {
                const r = await request<Profile>('PATCH', '/api/user/totp-disable/', {
                  body: { totp },
                  expect: 200,
                });
                if (r.ok) {
                  replaceProfile(r.data);
                  notify.success('Two-factor authentication is off');
                  navigate(href('profile'));
                }
                return r;
              }}
            />
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
