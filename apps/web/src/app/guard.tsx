import { Suspense, useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { notify } from '../lib/notify';
import { useSession } from '../lib/session/session-store';
import { currentBrand } from './brands';
import { decideNavigation } from './navigation';
import { routeByName } from './route-table';
import { FullPageLoader, SessionErrorPage } from './status-pages';

export interface RouteHandle {
  name: string;
  title: string;
}

function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null && 'name' in value && 'title' in value;
}

/** What the guard needs of a route's code: to start loading it once the visit is allowed. */
export interface Preloadable {
  preload: () => Promise<unknown>;
}

function isPreloadable(value: unknown): value is Preloadable {
  return typeof value === 'object' && value !== null && 'preload' in value;
}

/**
 * Applies the navigation rules to the matched route before any layout or screen renders or
 * even loads (their code is fetched only once the visit is allowed).
 */
export function Guard() {
  const matches = useMatches();
  const location = useLocation();
  const session = useSession();
  const handle = matches.map((m) => m.handle).findLast(isRouteHandle);
  const route = handle ? routeByName(handle.name) : undefined;
  const decision = decideNavigation(route, location, session);
  const told = useRef<string | null>(null);

  useEffect(() => {
    document.title = `${handle?.title ?? 'Page not found'} · ${currentBrand.name}`;
  }, [handle?.title]);

  useEffect(() => {
    if (decision.kind === 'redirect' && decision.message && told.current !== location.key) {
      told.current = location.key;
      notify.error(decision.message);
    }
  }, [decision, location.key]);

  const preload = () => {
    for (const match of matches) if (isPreloadable(match.handle)) void match.handle.preload();
  };

  switch (decision.kind) {
    case 'wait':
      // A remembered user (signed in on this browser before) is most likely still signed in:
      // their screen's code loads while the session is checked. A visitor with nothing
      // remembered downloads nothing until the rules allow it.
      if (session.status === 'persisted-locally') preload();
      return <FullPageLoader />;
    case 'error':
      return <SessionErrorPage />;
    case 'redirect':
      return <Navigate to={decision.to} replace />;
    case 'allow':
      // The layout's and the screen's code load now, both at once.
      preload();
      return (
        <Suspense fallback={<FullPageLoader />}>
          <Outlet />
        </Suspense>
      );
  }
}
