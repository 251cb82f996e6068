import { Anchor, Box, Group, Stack, Text, useMantineColorScheme } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Outlet } from 'react-router';
import { Icon, type IconName } from '../../components/icons';
import { useSession } from '../../lib/session/session-store';
import { currentBrand } from '../brands';
import { MaintenanceBanner } from '../maintenance-banner';
import { BrandMark } from './brand-mark';
import classes from './layouts.module.css';
import { MAIN_ID, SkipLink } from './skip-link';

const FEATURES: { icon: IconName; title: string; text: string }[] = [
  {
    icon: 'shield',
    title: 'DBS, right to work and identity',
    text: 'Every check in one case, with live progress.',
  },
  {
    icon: 'users',
    title: 'A guided portal for applicants',
    text: 'People complete their part on any device.',
  },
  { icon: 'flag', title: 'Nothing slips', text: 'Flags, reminders and renewals tracked for you.' },
];

/** Layout for public pages (sign-in, sign-up, portals): brand panel plus one focused column. */
export default function PublicLayout() {
  const { Logo, name, tagline, contact } = currentBrand;
  const { status } = useSession();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  // Dark mode belongs to a signed-in profile; signed-out pages are light.
  const signedOutDark = status === 'logged-out' && colorScheme === 'dark';
  const setScheme = useRef(setColorScheme);
  setScheme.current = setColorScheme;
  useEffect(() => {
    if (signedOutDark) setScheme.current('light');
  }, [signedOutDark]);
  return (
    <Box className={classes.publicShell}>
      <SkipLink />
      <Box component="aside" className={classes.brandPanel} aria-label={`About ${name}`}>
        <Group gap={12}>
          <Box
            style={{
              lineHeight: 0,
              borderRadius: 9,
              boxShadow: '0 0 0 2px rgb(255 255 255 / 0.6)',
            }}
          >
            <Logo size={36} />
          </Box>
          <Text fw={750} size="xl">
            {name}
          </Text>
        </Group>
        <Stack gap="xl" maw={440}>
          {/* The brand's claim, not a heading: each page's own h1 is the first heading. */}
          <Text c="white" fz={34} fw={650} lh={1.15}>
            {tagline}
          </Text>
          {FEATURES.map((f) => (
            <div className={classes.feature} key={f.title}>
              <div className={classes.featureIcon}>
                <Icon name={f.icon} size={18} />
              </div>
              <div>
                <Text fw={650}>{f.title}</Text>
                <Text size="sm" c="rgb(255 255 255 / 0.85)">
                  {f.text}
                </Text>
              </div>
            </div>
          ))}
        </Stack>
        <Text size="sm" c="rgb(255 255 255 / 0.85)">
          {contact.address}
        </Text>
      </Box>
      <Box className={classes.publicMain}>
        <Box component="header" className={classes.mobileBrand}>
          <BrandMark />
        </Box>
        <Box component="main" id={MAIN_ID} tabIndex={-1} className={classes.publicContent}>
          <Box className={classes.publicInner}>
            <MaintenanceBanner />
            <Outlet />
          </Box>
        </Box>
        <Box component="footer" className={classes.publicFooter}>
          <Group justify="space-between" gap="xs">
            <Text size="sm" c="dimmed">
              © {name}
            </Text>
            <Group gap="md">
              <Anchor size="sm" href={`mailto:${contact.email}`}>
                {contact.email}
              </Anchor>
              <Text size="sm" c="dimmed">
                {contact.phone}
              </Text>
            </Group>
          </Group>
        </Box>
      </Box>
    </Box>
  );
}
