import '../styles-frame';
import { Box, Burger, Container, Group, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { href, type PlainRouteName } from '../../config/paths';
import { currentBrand } from '../brands';
import { MaintenanceBanner } from '../maintenance-banner';
import { BrandMark } from './brand-mark';
import { useMenus } from './deferred-menus';
import classes from './layouts.module.css';
import { MAIN_ID, SkipLink } from './skip-link';
import { UserMenu } from './user-menu';
import { WithQueries } from './with-queries';

const LINKS: readonly { route: PlainRouteName; label: string }[] = [
  { route: 's:dashboard', label: 'Your checks' },
  { route: 's:cases', label: 'Cases' },
  { route: 's:consents', label: 'Consents' },
  { route: 's:profile', label: 'Profile' },
];

/** Layout for subjects (people being checked), under /s/. */
export default function SubjectLayout() {
  const { pathname } = useLocation();
  const links = LINKS.map((l) => ({ ...l, to: href(l.route) }));
  return (
    <WithQueries>
      <Box mih="100dvh" className={classes.subjectShell}>
        <SkipLink />
        <Box component="header" className={classes.subjectHeader}>
          <Container size="lg" h="100%">
            <Group h="100%" justify="space-between" wrap="nowrap">
              <BrandMark to={href('s:dashboard')} />
              <Group gap={4} component="nav" aria-label="Main" visibleFrom="sm">
                {links.map((l) => (
                  <UnstyledButton
                    key={l.route}
                    component={Link}
                    to={l.to}
                    className={classes.topLink}
                    mod={{ active: pathname.startsWith(l.to) }}
                    aria-current={pathname.startsWith(l.to) ? 'page' : undefined}
                  >
                    {l.label}
                  </UnstyledButton>
                ))}
              </Group>
              <Group gap="xs" wrap="nowrap">
                <Box hiddenFrom="sm">
                  <SubjectNav links={links} />
                </Box>
                <UserMenu />
              </Group>
            </Group>
          </Container>
        </Box>
        <Container
          size="lg"
          component="main"
          id={MAIN_ID}
          tabIndex={-1}
          py={{ base: 'md', sm: 'xl' }}
        >
          <MaintenanceBanner />
          <Outlet />
        </Container>
        <Box component="footer" className={classes.footer}>
          <Container size="lg">
            <Text size="sm" c="dimmed">
              Questions about your checks? Contact {currentBrand.name} at{' '}
              {currentBrand.contact.email} or {currentBrand.contact.phone}.
            </Text>
          </Container>
        </Box>
      </Box>
    </WithQueries>
  );
}

/** The navigation under a burger on a phone; its menu loads after the first paint (deferred-menus.ts). */
function SubjectNav({ links }: { links: readonly { route: string; label: string; to: string }[] }) {
  const { menus, load } = useMenus();
  const [pressed, setPressed] = useState(false);
  if (menus) return <menus.NavMenu links={links} openAtOnce={pressed} />;
  return (
    <Burger
      size="sm"
      aria-label="Open navigation"
      aria-haspopup="menu"
      aria-expanded={false}
      onClick={() => {
        setPressed(true);
        load();
      }}
    />
  );
}
