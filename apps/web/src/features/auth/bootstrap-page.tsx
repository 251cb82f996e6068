import { Alert, Button, Loader, Stack, Text, useMantineColorScheme } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { MESSAGES_UI } from '../../api/messages';
import { safeNext } from '../../config/paths';
import { notify } from '../../lib/notify';
import { loadBootstrap } from '../../lib/session/bootstrap';
import { getSession, setSession, useSession } from '../../lib/session/session-store';

/** Loads the session's data once, then goes on to `next` (spec point 2: bootstrap first). */
export default function BootstrapPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { setColorScheme } = useMantineColorScheme();
  // Mantine's setter is a new function on every render: keep it out of the effect's inputs, or a
  // failed load would retry in a loop.
  const setScheme = useRef(setColorScheme);
  setScheme.current = setColorScheme;
  const { bootstrap, userType, sessionCustomer } = useSession();
  const [attempt, setAttempt] = useState(0);
  const [failed, setFailed] = useState(false);
  const next = safeNext(params.get('next'));

  useEffect(() => {
    if (bootstrap) {
      navigate(next, { replace: true });
      return;
    }
    if (!userType) return;
    // `attempt` re-runs the load after 'Try again'.
    void attempt;
    let cancelled = false;
    setFailed(false);
    void loadBootstrap(userType, sessionCustomer).then((data) => {
      if (cancelled) return;
      if (!data) {
        setFailed(true);
        notify.error(MESSAGES_UI.bootstrapError);
        return;
      }
      setScheme.current(data.profile.dark_mode ? 'dark' : 'light');
      // Believed signed in (the first check may still be on its way): the server answered the
      // bootstrap, so the session is good. Not after a logout.
      if (getSession().status !== 'logged-out') setSession({ bootstrap: data });
    });
    return () => {
      cancelled = true;
    };
  }, [bootstrap, userType, sessionCustomer, attempt, next, navigate]);

  if (failed) {
    return (
      <Stack gap="md">
        <Alert color="red" variant="light" role="alert" data-testid="bootstrap-error">
          {MESSAGES_UI.bootstrapError}
        </Alert>
        <Button onClick={() => setAttempt((n) => n + 1)}>Try again</Button>
      </Stack>
    );
  }
  return (
    <Stack align="center" gap="sm" py="xl" aria-busy="true">
      <Loader role="status" aria-label="Loading" />
      <Text c="dimmed">Getting things ready…</Text>
    </Stack>
  );
}
