import { Anchor, Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { MESSAGES_UI } from '../api/messages';
import { href } from '../config/paths';
import { currentBrand } from './brands';
import { isChunkLoadError } from './chunk-loading';

function StatusCard({ title, children }: { title: string; children: React.ReactNode }) {
  const { Logo, name } = currentBrand;
  return (
    <Center mih="100dvh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="lg" maw={520} w="100%">
        <Stack gap="md" align="flex-start">
          <Group gap="xs">
            <Logo size={28} />
            <Text fw={700}>{name}</Text>
          </Group>
          <Title order={1} size="h2">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}

/** Replaces the whole app while the site is down (spec point 1, exact text). */
export function MaintenancePage({ staffLink = false }: { staffLink?: boolean }) {
  return (
    <StatusCard title="Scheduled maintenance">
      <Text data-testid="maintenance-message">{MESSAGES_UI.maintenance}</Text>
      {staffLink && (
        <Anchor component={Link} to={href('login', {}, { staff: 'y' })} size="sm">
          Operations staff sign-in
        </Anchor>
      )}
    </StatusCard>
  );
}

export function FullPageLoader() {
  return (
    <Center mih="100dvh" aria-busy="true" aria-live="polite">
      <Text c="dimmed">Loading…</Text>
    </Center>
  );
}

export function NotFoundPage() {
  return (
    <StatusCard title="Page not found">
      <Text>The page you asked for does not exist or has moved.</Text>
      <Button component={Link} to="/">
        Go to the start page
      </Button>
    </StatusCard>
  );
}

export function SessionErrorPage() {
  return (
    <StatusCard title="We could not reach the service">
      <Text>{MESSAGES_UI.defaultError}. Check your connection and try again.</Text>
      <Button onClick={() => window.location.reload()}>Try again</Button>
    </StatusCard>
  );
}

/** Root error boundary: chunk failures get a reload button, everything else a plain error. */
export function RootErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  if (isChunkLoadError(error)) {
    return (
      <StatusCard title="Update needed">
        <Text data-testid="chunk-error">
          {MESSAGES_UI.chunkLoadError} This usually happens after we release a new version or when
          the connection drops. Reloading the page fixes it.
        </Text>
        <Button onClick={() => window.location.reload()}>Reload the page</Button>
      </StatusCard>
    );
  }
  return (
    <StatusCard title="Something went wrong">
      <Text>{MESSAGES_UI.defaultError}.</Text>
      <Button onClick={() => window.location.reload()}>Reload the page</Button>
    </StatusCard>
  );
}
