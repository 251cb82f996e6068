// The rest of the signed-in CSS (Menu's among it) comes with the menus, after the first paint.
import '../styles-app';
import { Burger, Menu, useMantineColorScheme } from '@mantine/core';
import { useLayoutEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { failureMessage } from '../../api/messages';
import { Icon } from '../../components/icons';
import { href } from '../../config/paths';
import { notify } from '../../lib/notify';
import { saveProfile } from '../../lib/session/profile';
import { logout } from '../../lib/session/session-actions';
import type { Profile } from '../../lib/session/types';
import { AccountButton } from './account-button';

/**
 * The header's menus, loaded after the first paint (deferred-menus.ts). `openAtOnce`: the button
 * was pressed before this module arrived, so the menu opens as it mounts, the focus on its button.
 */

/** Avatar menu: profile, two-factor, dark mode (saved on the profile), sign out. */
export function AccountMenu({
  profile,
  openAtOnce,
  children,
}: {
  profile: Profile;
  openAtOnce: boolean;
  children?: React.ReactNode;
}) {
  const navigate = useNavigate();
  const { setColorScheme } = useMantineColorScheme();
  const target = useFocusAtOnce(openAtOnce);
  const isSubject = profile.user_type === 'SubjectUser';
  // Two-factor to set up before anything else (issue 30): only that, the colour scheme (their own
  // account's setting, which the server still allows) and signing out.
  const confined = profile.user_type === 'ProductUser' && profile.totp_setup_required;
  const toggleDark = async () => {
    const dark = !profile.dark_mode;
    setColorScheme(dark ? 'dark' : 'light');
    const r = await saveProfile({ dark_mode: dark });
    if (!r.ok) {
      setColorScheme(dark ? 'light' : 'dark');
      const message = failureMessage(r, { action: 'update', name: 'profile' });
      if (message) notify.error(message);
    }
  };
  const signOut = async () => {
    await logout();
    navigate(href('login'));
  };
  return (
    <Menu position="bottom-end" width={240} shadow="md" defaultOpened={openAtOnce}>
      <Menu.Target>
        <AccountButton profile={profile} ref={target} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{isSubject ? profile.email : profile.username}</Menu.Label>
        {!confined && (
          <Menu.Item
            component={Link}
            to={href(isSubject ? 's:profile' : 'profile')}
            leftSection={<Icon name="user" size={16} />}
          >
            Your profile
          </Menu.Item>
        )}
        {!isSubject && (
          <Menu.Item
            component={Link}
            to={href(profile.totp_enabled ? 'profile-totp-remove' : 'profile-totp')}
            leftSection={<Icon name="key" size={16} />}
          >
            {profile.totp_enabled ? 'Turn off two-factor' : 'Set up two-factor'}
          </Menu.Item>
        )}
        <Menu.Item leftSection={<Icon name="moon" size={16} />} onClick={toggleDark}>
          {profile.dark_mode ? 'Light mode' : 'Dark mode'}
        </Menu.Item>
        {!confined && children}
        <Menu.Divider />
        <Menu.Item
          leftSection={<Icon name="logout" size={16} />}
          onClick={signOut}
          data-testid="sign-out"
        >
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The subject's navigation under a burger on a phone. */
export function NavMenu({
  links,
  openAtOnce,
}: {
  links: readonly { route: string; label: string; to: string }[];
  openAtOnce: boolean;
}) {
  const target = useFocusAtOnce(openAtOnce);
  return (
    <Menu position="bottom-end" width={200} defaultOpened={openAtOnce}>
      <Menu.Target>
        <Burger size="sm" aria-label="Open navigation" ref={target} />
      </Menu.Target>
      <Menu.Dropdown>
        {links.map((l) => (
          <Menu.Item key={l.route} component={Link} to={l.to}>
            {l.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The pressed button was replaced by this one: the focus moves to it (closing returns there). */
function useFocusAtOnce(openAtOnce: boolean) {
  const ref = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (openAtOnce) ref.current?.focus();
  }, [openAtOnce]);
  return ref;
}
