import { maintenanceStatus } from '@kestrel/domain';
import { useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { PATHS } from '../config/paths';
import {
  initialSessionCheck,
  startSessionPolling,
  watchResponses,
} from '../lib/session/session-actions';
import { useSession } from '../lib/session/session-store';
import { MaintenancePage } from './status-pages';

function useNow(everyMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * The root route: starts the session check and polling. While the app is down the maintenance
 * page replaces everything: after a 503 (signed-in users), or for visitors during an open window
 * (the server still lets operations staff sign in, through the link on the maintenance page).
 */
export function AppRoot() {
  const { down, status, maintenanceWindow } = useSession();
  const { pathname, search } = useLocation();
  const now = useNow(15_000);
  useEffect(() => {
    const stopWatching = watchResponses();
    void initialSessionCheck();
    const stopPolling = startSessionPolling();
    return () => {
      stopWatching();
      stopPolling();
    };
  }, []);
  const visitorDown =
    status === 'logged-out' && maintenanceStatus(maintenanceWindow, now) === 'down';
  const staffSignIn = pathname === PATHS.login && new URLSearchParams(search).get('staff') === 'y';
  if (down || (visitorDown && !staffSignIn)) return <MaintenancePage staffLink={visitorDown} />;
  return <Outlet />;
}
