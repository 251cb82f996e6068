import '../styles-app';
import { AppShell, Box, Burger, Group, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet } from 'react-router';
import { currentBrand } from '../brands';
import { MaintenanceBanner } from '../maintenance-banner';
import { BrandMark } from './brand-mark';
import { MAIN_ID, SkipLink } from './skip-link';
import { WithQueries } from './with-queries';

/** The signed-in frame shared by the product and ops layouts: header, side navigation, main. */
export function AppFrame({
  nav,
  header,
  home,
  accent,
}: {
  /** The side navigation; none when the session may go nowhere else (two-factor to set up). */
  nav?: (close: () => void) => React.ReactNode;
  header: React.ReactNode;
  home: string;
  /** A strip under the header, e.g. the ops session notice. */
  accent?: React.ReactNode;
}) {
  const [opened, { toggle, close }] = useDisclosure();
  return (
    <WithQueries>
      <SkipLink />
      <AppShell
        header={{ height: 64 }}
        navbar={nav ? { width: 264, breakpoint: 'md', collapsed: { mobile: !opened } } : undefined}
        padding={0}
      >
        <AppShell.Header
          px="md"
          style={{ borderBottomColor: 'var(--mantine-color-default-border)' }}
        >
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              {nav && (
                <Burger
                  opened={opened}
                  onClick={toggle}
                  hiddenFrom="md"
                  size="sm"
                  aria-label="Toggle navigation"
                />
              )}
              <BrandMark to={home} />
            </Group>
            <Group gap="sm" wrap="nowrap">
              {header}
            </Group>
          </Group>
        </AppShell.Header>
        {nav && (
          <AppShell.Navbar p="sm" style={{ background: 'var(--mantine-color-body)' }}>
            <AppShell.Section grow component={ScrollArea}>
              {nav(close)}
            </AppShell.Section>
            <AppShell.Section pt="sm" px="sm">
              <Text size="xs" c="dimmed">
                {currentBrand.contact.email}
                <br />
                {currentBrand.contact.phone}
              </Text>
            </AppShell.Section>
          </AppShell.Navbar>
        )}
        <AppShell.Main
          id={MAIN_ID}
          tabIndex={-1}
          style={{
            background: 'light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-8))',
          }}
        >
          {accent}
          <Box p={{ base: 'md', sm: 'xl' }} maw={1280} mx="auto">
            <MaintenanceBanner />
            <Outlet />
          </Box>
        </AppShell.Main>
      </AppShell>
    </WithQueries>
  );
}
