import { TOTP_REQUIRED_NOTICE, type TotpSecretOut } from '@kestrel/domain';
import {
  Alert,
  Anchor,
  Code,
  Group,
  Image,
  Loader,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import QRCode from 'qrcode';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { request } from '../../api/client';
import { MESSAGES_UI } from '../../api/messages';
import { CopyButton } from '../../components/copy-button';
import { href } from '../../config/paths';
import { notify } from '../../lib/notify';
import { replaceProfile, useProductProfile } from '../../lib/session/profile';
import type { Profile } from '../../lib/session/types';
import { TotpCodeForm } from './totp-code-form';

/** The server's new secret (contract: totpSecretOut) and its QR code. */
type Enrolment = TotpSecretOut & { qr: string };

/** Two-factor enrolment: a QR code (and the secret) for the app, then a code to prove it works. */
export default function TotpPage() {
  const profile = useProductProfile();
  const navigate = useNavigate();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [failed, setFailed] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (started.current || profile?.totp_enabled) return;
    started.current = true;
    void (async () => {
      const r = await request<TotpSecretOut>('PATCH', '/api/user/totp-generate/', { expect: 200 });
      if (!r.ok) {
        setFailed(true);
        return;
      }
      const qr = await QRCode.toDataURL(r.data.otpauth_url, { margin: 1, width: 220 });
      setEnrolment({ ...r.data, qr });
    })();
  }, [profile?.totp_enabled]);

  if (profile?.totp_enabled) {
    return (
      <Stack gap="lg" maw={640}>
        <Title order={1}>Two-factor authentication</Title>
        <Alert color="teal" variant="light">
          Two-factor authentication is on.{' '}
          <Anchor component={Link} to={href('profile-totp-remove')}>
            Turn it off
          </Anchor>
        </Alert>
      </Stack>
    );
  }
  return (
    <Stack gap="lg" maw={640}>
      <Title order={1}>Set up two-factor authentication</Title>
      {profile?.totp_setup_required && (
        <Alert color="blue" variant="light" data-testid="totp-required">
          {TOTP_REQUIRED_NOTICE}
        </Alert>
      )}
      <Paper withBorder radius="lg" p="xl">
        {failed ? (
          <Alert color="red" variant="light" role="alert">
            {MESSAGES_UI.defaultError}
          </Alert>
        ) : !enrolment ? (
          <Loader role="status" aria-label="Preparing your code" />
        ) : (
          <Stack gap="lg">
            <Text>
              1. Scan this code with an authenticator app (for example Google Authenticator,
              Microsoft Authenticator or 1Password).
            </Text>
            <Group align="center" gap="xl">
              <Image
                src={enrolment.qr}
                alt="QR code to add your account to an authenticator app"
                w={180}
                h={180}
                data-testid="totp-qr"
              />
              <Stack gap={6}>
                <Text size="sm" c="dimmed">
                  Cannot scan? Enter this key:
                </Text>
                <Group gap="xs">
                  <Code fz="sm" data-testid="totp-secret">
                    {enrolment.secret}
                  </Code>
                  <CopyButton value={enrolment.secret} label="Copy key" />
                </Group>
              </Stack>
            </Group>
            <Text>2. Enter the 6-digit code the app shows.</Text>
            <TotpCodeForm
              submitLabel="Turn on two-factor"
              onSubmit={async (totp) => {
                const r = await request<Profile>('PATCH', '/api/user/totp-validate/', {
                  body: { totp },
                  expect: 200,
                });
                if (r.ok) {
                  replaceProfile(r.data);
                  notify.success('Two-factor authentication is on');
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
