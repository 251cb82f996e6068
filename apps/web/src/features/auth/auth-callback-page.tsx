import { Loader, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { href, safeNext } from '../../config/paths';
import { adoptNewSession } from '../../lib/session/session-actions';
import { getSession } from '../../lib/session/session-store';

/** Return point of an external sign-in: adopt the new session, or show the error page. */
export default function AuthCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => {
    const error = params.get('error');
    if (error) {
      navigate(href('social-error', {}, { error }), { replace: true });
      return;
    }
    void adoptNewSession().then(() => {
      const loggedIn = getSession().status === 'logged-in';
      navigate(
        loggedIn
          ? href('bootstrap', {}, { next: safeNext(params.get('next')) })
          : href('social-error'),
        { replace: true },
      );
    });
  }, [params, navigate]);
  return (
    <Stack align="center" gap="sm" py="xl">
      <Loader role="status" aria-label="Signing you in" />
      <Text c="dimmed">Signing you in…</Text>
    </Stack>
  );
}
