import { MESSAGES, type SsoCallbackIn } from '@kestrel/domain';
import { Alert, Anchor, Button, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { getCsrfToken } from '../../api/client';
import { MESSAGES_UI } from '../../api/messages';
import { href, safeNext } from '../../config/paths';
import { adoptNewSession, initialSessionCheck } from '../../lib/session/session-actions';
import { finishSso } from './api';

type Phase = { kind: 'working' } | { kind: 'code'; error: string | null; busy: boolean };

function reasonOf(data: Readonly<Record<string, unknown>>): string | null {
  const r = data.reason;
  return Array.isArray(r) && typeof r[0] === 'string' ? r[0] : null;
}

/**
 * /auth/callback: where the organisation's identity provider sends the person back. Posts the
 * code and state to the server once; signed in → bootstrap (then `next`); a TOTP code asked →
 * the code form; refused → /auth/social-error?reason=<code>.
 */
export function SsoCallback() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [phase, setPhase] = useState<Phase>({ kind: 'working' });
  const [code, setCode] = useState('');
  // The state is single use: the exchange runs once, even when effects run twice.
  const sent = useRef(false);
  const state = params.get('state') ?? '';

  const fail = (reason: string | null) =>
    navigate(href('social-error', {}, reason ? { reason } : {}), { replace: true });

  const submit = async (body: SsoCallbackIn) => {
    const r = await finishSso(body);
    if (r.ok) {
      await adoptNewSession(r.data.csrf_token);
      navigate(href('bootstrap', {}, { next: safeNext(r.data.next) }), { replace: true });
      return;
    }
    if (r.status === 400 && 'totp' in r.data) {
      setPhase({ kind: 'code', error: null, busy: false });
      return;
    }
    if (r.status === 401 && body.totp) {
      setPhase({ kind: 'code', error: MESSAGES_UI.invalidLogin, busy: false });
      return;
    }
    fail(reasonOf(r.data));
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per arrival
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    if (!state) {
      fail('invalid_state');
      return;
    }
    const body: SsoCallbackIn = { state };
    for (const key of ['code', 'iss', 'error', 'error_description'] as const) {
      const v = params.get(key);
      if (v !== null) body[key] = v;
    }
    // A public page renders before the page's first check-session has answered; the POST needs
    // that answer's CSRF token (without it the server refuses it with no reason: seen in CI).
    void (getCsrfToken() ? Promise.resolve() : initialSessionCheck()).then(() => submit(body));
  }, []);

  if (phase.kind === 'working') {
    return (
      <Stack align="center" gap="sm" py="xl">
        <Loader role="status" aria-label="Signing you in" />
        <Text c="dimmed">Signing you in…</Text>
      </Stack>
    );
  }

  const onCode = async (e: React.FormEvent) => {
    e.preventDefault();
    const value = code.trim();
    if (!/^\d{6}$/.test(value)) {
      setPhase({ ...phase, error: value ? MESSAGES.invalidFormat : MESSAGES.required });
      return;
    }
    setPhase({ kind: 'code', error: null, busy: true });
    await submit({ state, totp: value });
  };

  return (
    <Stack gap="lg">
      <Stack gap={6}>
        <Title order={1} fz={{ base: 26, sm: 30 }}>
          One more step
        </Title>
        <Text c="dimmed">
          Your organisation signed you in. Enter the code from your authenticator app.
        </Text>
      </Stack>
      <Alert color="blue" variant="light" role="status">
        {MESSAGES_UI.mfaRequired}
      </Alert>
      <form onSubmit={onCode} noValidate>
        <Stack gap="md">
          <TextInput
            label="Authenticator code"
            name="totp"
            description="The 6-digit code from your authenticator app."
            inputMode="numeric"
            autoComplete="one-time-code"
            autoFocus
            required
            maxLength={6}
            value={code}
            error={phase.error}
            onChange={(e) => setCode(e.currentTarget.value)}
          />
          <Button type="submit" size="md" fullWidth loading={phase.busy}>
            Verify and sign in
          </Button>
          <Anchor component={Link} to={href('login')} size="sm" ta="center">
            Back to sign in
          </Anchor>
        </Stack>
      </form>
    </Stack>
  );
}
