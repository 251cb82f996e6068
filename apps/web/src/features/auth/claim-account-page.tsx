import { type LoginOut, MESSAGES, minCharacters } from '@kestrel/domain';
import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { request } from '../../api/client';
import { backendErrorLines, MESSAGES_UI } from '../../api/messages';
import { href } from '../../config/paths';
import { adoptNewSession } from '../../lib/session/session-actions';
import { AuthCard } from './auth-card';

/** Where a subject who already has a password signs in instead (spec point 2: subject=y). */
const signInInstead = href('login', {}, { next: href('s:dashboard'), subject: 'y' });
const MIN_LENGTH = 12;

type Field = 'claim-password' | 'claim-confirm';
interface Problem {
  field: Field;
  message: string;
}

function check(password: string, confirm: string): Problem[] {
  const problems: Problem[] = [];
  if (!password) problems.push({ field: 'claim-password', message: MESSAGES.required });
  else if (password.length < MIN_LENGTH)
    problems.push({ field: 'claim-password', message: minCharacters(MIN_LENGTH) });
  if (password && confirm !== password)
    problems.push({ field: 'claim-confirm', message: 'Passwords do not match' });
  return problems;
}

/**
 * The invitation email's link: a subject sets a password for the account made for them and is
 * signed in; the navigation rules then ask for the date of birth and the terms (complete
 * profile) before the dashboard. Someone who already has an account signs in instead.
 *
 * It is the first page an invited person sees, often on a phone: it uses only what the sign-in
 * page already loads (no form or schema library), so the link opens within the 150 KB budget
 * (e2e/budget.test.ts). The server checks the password's strength too and its answer is shown.
 */
export default function ClaimAccountPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problems, setProblems] = useState<Problem[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorOf = (field: Field) => problems.find((p) => p.field === field)?.message;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found = check(password, confirm);
    setProblems(found);
    if (found.length > 0) {
      document.getElementById('claim-problems')?.focus();
      return;
    }
    setBusy(true);
    const r = await request<LoginOut>('POST', '/api/user/claim-account/', {
      body: { token, password },
    });
    if (r.ok) {
      await adoptNewSession(r.data?.csrf_token);
      navigate(href('bootstrap', {}, { next: href('s:dashboard') }), { replace: true });
      return;
    }
    setBusy(false);
    const fieldLines = Array.isArray(r.data.password) ? r.data.password.map(String) : [];
    if (fieldLines.length)
      setProblems([{ field: 'claim-password', message: fieldLines.join(' ') }]);
    const lines = backendErrorLines(r.data).filter((l) => !l.startsWith('password:'));
    setFailure(
      lines.length ? lines.join('\n') : fieldLines.length ? null : MESSAGES_UI.defaultError,
    );
  };

  return (
    <AuthCard
      title="Claim your account"
      subtitle="Set a password to see and complete the checks requested for you."
    >
      <Stack gap="lg">
        {token ? (
          <form onSubmit={submit} noValidate>
            <Stack gap="md">
              {problems.length > 0 && (
                <Alert
                  id="claim-problems"
                  tabIndex={-1}
                  color="red"
                  variant="light"
                  role="alert"
                  title="There is a problem"
                  data-testid="error-summary"
                >
                  <Stack gap={4}>
                    {problems.map((p) => (
                      <Anchor
                        key={p.field}
                        href={`#${p.field}`}
                        c="red.9"
                        fw={600}
                        onClick={(e) => {
                          e.preventDefault();
                          document.getElementById(p.field)?.focus();
                        }}
                      >
                        {p.field === 'claim-password' ? 'New password' : 'Confirm new password'}:{' '}
                        {p.message}
                      </Anchor>
                    ))}
                  </Stack>
                </Alert>
              )}
              {failure && (
                <Alert color="red" variant="light" role="alert" style={{ whiteSpace: 'pre-line' }}>
                  {failure}
                </Alert>
              )}
              <PasswordInput
                id="claim-password"
                name="password"
                label="New password"
                description="At least 12 characters."
                autoComplete="new-password"
                required
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                error={errorOf('claim-password')}
              />
              <PasswordInput
                id="claim-confirm"
                name="confirm"
                label="Confirm new password"
                autoComplete="new-password"
                required
                value={confirm}
                onChange={(e) => setConfirm(e.currentTarget.value)}
                error={errorOf('claim-confirm')}
              />
              <Button type="submit" fullWidth size="lg" loading={busy}>
                Claim account
              </Button>
            </Stack>
          </form>
        ) : (
          <Alert color="red" variant="light" role="alert">
            This link is incomplete. Open the link from your email again.
          </Alert>
        )}
        <Text>
          Already have an account?{' '}
          <Anchor component={Link} to={signInInstead} fw={600}>
            Sign in
          </Anchor>
        </Text>
      </Stack>
    </AuthCard>
  );
}
