import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { checkSession, startSessionPolling, watchResponses } from './session/session-actions';
import { useSession } from './session/session-store';
import { MaintenancePage } from './status-pages';

/** The root route: starts the session check and polling; maintenance replaces everything. */
export function AppRoot() {
  const { down } = useSession();
  useEffect(() => {
    const stopWatching = watchResponses();
    void checkSession();
    const stopPolling = startSessionPolling();
    return () => {
      stopWatching();
      stopPolling();
    };
  }, []);
  if (down) return <MaintenancePage />;
  return <Outlet />;
}
