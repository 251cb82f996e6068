import { Alert, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';
import { loadPortal, type PortalLoad, type PublicPortal } from '../api';

/** A portal's page heading: its title (the page's h1, focusable when the step changes). */
export function PortalHeading({
  portal,
  title,
  headingRef,
}: {
  portal: PublicPortal;
  title?: string;
  headingRef?: React.Ref<HTMLHeadingElement>;
}) {
  return (
    <Stack gap={6}>
      <Text size="sm" c="dimmed" fw={600}>
        {portal.customer_name} · {portal.process_name}
      </Text>
      <Title
        order={1}
        fz={{ base: 26, sm: 30 }}
        ref={headingRef}
        tabIndex={-1}
        style={{ outline: 'none' }}
      >
        {title ?? portal.title}
      </Title>
    </Stack>
  );
}

/** The portal read from `apiPath` (GET), reloaded when the path changes. */
export function usePortal(apiPath: string): PortalLoad {
  const [load, setLoad] = useState<PortalLoad>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    setLoad({ state: 'loading' });
    void loadPortal(apiPath).then((l) => {
      if (current) setLoad(l);
    });
    return () => {
      current = false;
    };
  }, [apiPath]);
  return load;
}

/**
 * The portal once read; a loader while reading; a missing or failed portal in words; one that
 * takes no registrations (closed, full, past its closing date) with its message.
 */
export function PortalGate({
  load,
  children,
  whenUnavailable = false,
}: {
  load: PortalLoad;
  children: (portal: PublicPortal) => ReactNode;
  /** Shown even when it takes no registrations (a registration made earlier is confirmed). */
  whenUnavailable?: boolean;
}) {
  if (load.state === 'loading')
    return (
      <Group justify="center" p="xl">
        <Loader role="status" aria-label="Loading" />
      </Group>
    );
  if (load.state === 'missing')
    return (
      <Stack gap="md">
        <Title order={1}>Registration not found</Title>
        <Text>
          This registration link is not valid. Check the link you were given, or ask the
          organisation that sent it.
        </Text>
      </Stack>
    );
  if (load.state === 'failed')
    return (
      <Stack gap="md">
        <Title order={1}>Registration</Title>
        <Alert color="red" variant="light" role="alert">
          The registration could not be loaded. Try again in a moment.
        </Alert>
      </Stack>
    );
  const p = load.portal;
  if (p.unavailable && !whenUnavailable)
    return (
      <Stack gap="lg">
        <PortalHeading portal={p} />
        <Alert color="yellow" variant="light" role="status" data-testid="portal-unavailable">
          {p.unavailable_message}
        </Alert>
      </Stack>
    );
  return children(p);
}
