import '@mantine/core/styles/Skeleton.css';
import { Anchor, Button, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { Loaded } from '../api';

/** The state of several loads at once: the first that is not ready decides. */
export function combined(...loads: (Loaded<unknown> | undefined)[]): Loaded<null> | 'loading' {
  for (const l of loads) {
    if (!l) return 'loading';
    if (l.state !== 'ready') return l;
  }
  return { state: 'ready', data: null };
}

/**
 * A page still loading (a few grey lines) or that cannot be shown: not published or not there
 * (404), too many requests (429), or another failure, with a way on. Each has its own heading.
 */
export function LoadState({
  load,
  home,
  onRetry,
}: {
  load: Loaded<null> | 'loading';
  /** The councils list, where a visitor who took a wrong turn can start again. */
  home: string;
  onRetry: () => void;
}) {
  if (load === 'loading') {
    return (
      <Stack gap="md" aria-busy="true" aria-label="Loading">
        <Skeleton h={14} w="60%" />
        <Skeleton h={34} w="80%" />
        <Skeleton h={70} />
        <Skeleton h={70} />
      </Stack>
    );
  }
  if (load.state === 'missing') {
    return (
      <Stack gap="md" data-testid="lms-missing">
        <Title order={1}>Page not found</Title>
        <Text>
          This licence page is not published, or is no longer open. If you typed the web address,
          check it is correct.
        </Text>
        <Anchor component={Link} to={home}>
          Find a licence from your council
        </Anchor>
      </Stack>
    );
  }
  const busy = load.state === 'busy';
  return (
    <Stack gap="md" align="flex-start" role="alert" data-testid="lms-failed">
      <Title order={1}>Sorry, there is a problem</Title>
      <Text>
        {busy
          ? 'Too many pages were asked for from your connection. Wait a minute, then try again.'
          : 'The page could not be loaded. Check your connection and try again.'}
      </Text>
      <Button variant="default" size="md" mih={44} onClick={onRetry}>
        Try again
      </Button>
    </Stack>
  );
}
