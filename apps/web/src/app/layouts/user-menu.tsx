import { Avatar, Group, Menu, Text, UnstyledButton, useMantineColorScheme } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { failureMessage } from '../../api/messages';
import { Icon } from '../../components/icons';
import { href } from '../../config/paths';
import { notify } from '../../lib/notify';
import { displayName, initials, saveProfile, useProfile } from '../../lib/session/profile';
import { logout } from '../../lib/session/session-actions';

/** Avatar menu: profile, two-factor, dark mode (saved on the profile), sign out. */
export function UserMenu({ children }: { children?: React.ReactNode }) {
  const profile = useProfile();
  const navigate = useNavigate();
  const { setColorScheme } = useMantineColorScheme();
  if (!profile) return null;
  const isSubject = profile.user_type === 'SubjectUser';
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
  const name = displayName(profile);
  // The name starts with what the button shows, the initials and the name (WCAG 2.5.3).
  const label = name ? `${initials(profile)} ${name}, account menu` : 'Account menu';
  return (
    <Menu position="bottom-end" width={240} shadow="md">
      <Menu.Target>
        <UnstyledButton aria-label={label} data-testid="user-menu">
          <Group gap={8} wrap="nowrap">
            <Avatar color="brand" radius="xl" size={34}>
              {initials(profile)}
            </Avatar>{' '}
            <Text size="sm" fw={600} visibleFrom="sm">
              {name}
            </Text>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{isSubject ? profile.email : profile.username}</Menu.Label>
        <Menu.Item
          component={Link}
          to={href(isSubject ? 's:profile' : 'profile')}
          leftSection={<Icon name="user" size={16} />}
        >
          Your profile
        </Menu.Item>
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
        {children}
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
