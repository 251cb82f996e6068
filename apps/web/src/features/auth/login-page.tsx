import { MESSAGES } from '@kestrel/domain';
import {
  Alert,
  Anchor,
  Button,
  Divider,
  Group,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { backendErrorLines, MESSAGES_UI, throttledText } from '../../api/messages';
import { href, safeNext } from '../../config/paths';
import { login } from '../../lib/session/session-actions';
import { AuthCard } from './auth-card';

type Notice = { tone: 'info' | 'error'; text: string } | null;

const ORGANISATION_EMAIL =
  'Enter your work email address, then choose "Sign in with your organisation".';
type Field = 'username' | 'password' | 'totp';

// Plain controlled inputs: the sign-in page is the first visit, so it skips the form library.
function validate(
  values: Record<Field, string>,
  needsCode: boolean,
): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  if (!values.username.trim()) errors.username = MESSAGES.required;
  if (!values.password) errors.password = MESSAGES.required;
  if (needsCode) {
    if (!values.totp.trim()) errors.totp = MESSAGES.required;
    else if (!/^\d{6}$/.test(values.totp.trim())) errors.totp = MESSAGES.invalidFormat;
  }
  return errors;
}

/** Sign-in for every user type; a 400 asks for the authenticator code (spec point 4). */
export default function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const next = safeNext(params.get('next'));
  const forSubject = params.get('subject') === 'y';
  const [values, setValues] = useState<Record<Field, string>>({
    username: '',
    password: '',
    totp: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [needsCode, setNeedsCode] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  // The email field has the focus on arrival: signing in is all this page is for.
  const email = useRef<HTMLInputElement>(null);
  useEffect(() => email.current?.focus(), []);
  const bind = (field: Field) => ({
    value: values[field],
    error: errors[field],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      const value = e.currentTarget.value;
      setValues((v) => ({ ...v, [field]: value }));
    },
  });

  // Sign-in through the organisation's identity provider (OpenID Connect): the email says which.
  const onOrganisation = async () => {
    const address = values.username.trim();
    if (!/^[^@\s]+@[^@\s]+$/.test(address)) {
      setErrors({ username: ORGANISATION_EMAIL });
      email.current?.focus();
      return;
    }
    setErrors({});
    setNotice(null);
    setBusy(true);
    const { startSso } = await import('../sso');
    const r = await startSso(address, next === '/' ? undefined : next);
    if (r.ok) {
      window.location.assign(r.data.authorization_url);
      return;
    }
    setBusy(false);
    const lines = backendErrorLines(r.data);
    if (r.status === 400 && 'email' in r.data) {
      setErrors({ username: lines.join(' ').replace(/^Email: /, '') });
      email.current?.focus();
      return;
    }
    setNotice({
      tone: 'error',
      text:
        r.status === 429
          ? throttledText(r.retryAfter ?? null)
          : lines.length
            ? lines.join('\n')
            : MESSAGES_UI.defaultError,
    });
  };

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    const found = validate(values, needsCode);
    setErrors(found);
    if (Object.keys(found).length) return;
    setNotice(null);
    setBusy(true);
    const outcome = await login({
      username: values.username.trim(),
      password: values.password,
      totp: needsCode ? values.totp.trim() : undefined,
    });
    setBusy(false);
    switch (outcome.kind) {
      case 'ok':
        navigate(href('bootstrap', {}, { next }), { replace: true });
        return;
      case 'mfa':
        setNeedsCode(true);
        setNotice({ tone: 'info', text: MESSAGES_UI.mfaRequired });
        return;
      case 'invalid':
        setNotice({ tone: 'error', text: MESSAGES_UI.invalidLogin });
        return;
      case 'throttled':
        setNotice({ tone: 'error', text: throttledText(outcome.retryAfter) });
        return;
      case 'failed': {
        const lines = backendErrorLines(outcome.body);
        setNotice({
          tone: 'error',
          text: lines.length ? lines.join('\n') : MESSAGES_UI.defaultError,
        });
      }
    }
  };

  return (
    <AuthCard
      title={forSubject ? 'Sign in to your checks' : 'Sign in'}
      subtitle={
        forSubject
          ? 'Use the email address your checks were sent to.'
          : 'Welcome back. Sign in to continue.'
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {notice && (
            <Alert
              color={notice.tone === 'info' ? 'blue' : 'red'}
              variant="light"
              role={notice.tone === 'info' ? 'status' : 'alert'}
              data-testid="login-notice"
              style={{ whiteSpace: 'pre-line' }}
            >
              {notice.text}
            </Alert>
          )}
          <TextInput
            label="Email"
            name="username"
            type="email"
            autoComplete="username"
            ref={email}
            required
            readOnly={needsCode}
            {...bind('username')}
          />
          <PasswordInput
            label="Password"
            name="password"
            autoComplete="current-password"
            required
            readOnly={needsCode}
            {...bind('password')}
          />
          {needsCode && (
            <TextInput
              label="Authenticator code"
              name="totp"
              description="The 6-digit code from your authenticator app."
              inputMode="numeric"
              autoComplete="one-time-code"
              autoFocus
              required
              maxLength={6}
              {...bind('totp')}
            />
          )}
          <Group justify="flex-end">
            <Anchor component={Link} to={href('password-reset')} size="sm">
              Forgotten your password?
            </Anchor>
          </Group>
          <Button type="submit" size="md" fullWidth loading={busy}>
            {needsCode ? 'Verify and sign in' : 'Sign in'}
          </Button>
          {!forSubject && !needsCode && (
            <>
              <Divider label="or" labelPosition="center" />
              <Button
                type="button"
                variant="default"
                size="md"
                fullWidth
                disabled={busy}
                onClick={() => void onOrganisation()}
              >
                Sign in with your organisation
              </Button>
            </>
          )}
          {!forSubject && (
            <Text size="sm" c="dimmed" ta="center">
              New to us?{' '}
              <Anchor component={Link} to={href('signup')}>
                Create an account
              </Anchor>
            </Text>
          )}
        </Stack>
      </form>
    </AuthCard>
  );
}
