import { useState } from 'react';
import { useProfile } from '../../lib/session/profile';
import { AccountButton } from './account-button';
import { useMenus } from './deferred-menus';

/**
 * Avatar menu: profile, two-factor, dark mode (saved on the profile), sign out. The menu itself
 * (menus.tsx) loads after the first paint; a press before it arrived opens it when it does.
 */
export function UserMenu({ children }: { children?: React.ReactNode }) {
  const profile = useProfile();
  const { menus, load } = useMenus();
  const [pressed, setPressed] = useState(false);
  if (!profile) return null;
  if (menus) {
    return (
      <menus.AccountMenu profile={profile} openAtOnce={pressed}>
        {children}
      </menus.AccountMenu>
    );
  }
  return (
    <AccountButton
      profile={profile}
      aria-haspopup="menu"
      aria-expanded={false}
      onClick={() => {
        setPressed(true);
        load();
      }}
    />
  );
}
