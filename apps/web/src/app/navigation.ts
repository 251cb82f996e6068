import { hasEntitlement, hasPermission, needsProfileCompletion } from '@kestrel/domain';
import { generatePath, matchPath } from 'react-router';
import { MESSAGES_UI } from '../api/messages';
import { href, type RouteName, safeNext } from '../config/paths';
import { heldRights } from '../lib/rights';
import type { SessionState } from '../lib/session/types';
import { type RouteDef, routeByName } from './route-table';

export type NavigationDecision =
  | { kind: 'allow' }
  | { kind: 'wait' }
  | { kind: 'error' }
  | { kind: 'redirect'; to: string; message?: string };

const allow: NavigationDecision = { kind: 'allow' };

export interface Place {
  pathname: string;
  search: string;
}

/** True when the session may open the route (the navigation shows only these). */
export function canOpen(route: RouteDef, session: SessionState): boolean {
  const { permissions, entitlements } = heldRights(session);
  return (
    hasPermission(permissions, route.permissions ?? []) &&
    hasEntitlement(entitlements, route.entitlements ?? [])
  );
}

function subjectProfileIncomplete(session: SessionState): boolean {
  const profile = session.bootstrap?.profile;
  return profile?.user_type === 'SubjectUser' && needsProfileCompletion(profile);
}

function totpSetupRequired(session: SessionState): boolean {
  const profile = session.bootstrap?.profile;
  return profile?.user_type === 'ProductUser' && profile.totp_setup_required;
}

/** The same parameters on the /s/ equivalent of a route. */
function equivalent(route: RouteDef, targetName: RouteName, place: Place): string {
  const target = routeByName(targetName);
  const params = matchPath(route.path, place.pathname)?.params ?? {};
  return target ? `${generatePath(target.path, params)}${place.search}` : href('s:dashboard');
}

const dashboardOf = (session: SessionState) =>
  href(session.userType === 'SubjectUser' ? 's:dashboard' : 'dashboard');

/**
 * Where the root lands: the dashboard, except for operations staff outside a customer session,
 * who land on their work (the outstanding activities of every customer), not on an empty
 * customer dashboard.
 */
function landingOf(session: SessionState): string {
  const profile = session.bootstrap?.profile;
  const isOps = profile?.user_type === 'ProductUser' && profile.is_ops;
  return isOps && session.sessionCustomer === null ? href('ops:dashboard') : dashboardOf(session);
}

/**
 * The navigation rules of spec point 2, as one pure function of the route, the place and the
 * session. `route` undefined is the catch-all 404 (always shown).
 */
export function decideNavigation(
  route: RouteDef | undefined,
  place: Place,
  session: SessionState,
): NavigationDecision {
  const here = `${place.pathname}${place.search}`;
  if (!route) {
    // The 404 keeps a signed-in user's app frame, which needs the session's data first.
    if (session.status === 'persisted-locally') return { kind: 'wait' };
    if (session.status === 'logged-in' && !session.bootstrap) {
      return { kind: 'redirect', to: href('bootstrap', {}, { next: here }) };
    }
    return allow;
  }
  const loggedIn = session.status === 'logged-in';
  const isSubject = session.userType === 'SubjectUser';

  if (route.name === 'bootstrap') {
    if (session.status === 'unknown' || session.status === 'persisted-locally')
      return { kind: 'wait' };
    if (!loggedIn) {
      const next = new URLSearchParams(place.search).get('next');
      return { kind: 'redirect', to: href('login', {}, next ? { next } : undefined) };
    }
    return allow;
  }

  if (route.audience === 'public') {
    if (loggedIn && isSubject && route.subjectEquivalent) {
      return { kind: 'redirect', to: equivalent(route, route.subjectEquivalent, place) };
    }
    if (route.guestOnly) {
      // A visitor with nothing persisted sees the form at once; a remembered user waits for the
      // session check, which usually sends them on.
      if (session.status === 'persisted-locally') return { kind: 'wait' };
      if (loggedIn) {
        const next = new URLSearchParams(place.search).get('next');
        return { kind: 'redirect', to: safeNext(next) };
      }
    }
    return allow;
  }

  if (session.status === 'unknown' || session.status === 'persisted-locally')
    return { kind: 'wait' };
  if (session.status === 'error') return { kind: 'error' };
  if (!loggedIn) {
    const subject = place.pathname === '/s' || place.pathname.startsWith('/s/');
    return {
      kind: 'redirect',
      to: href('login', {}, subject ? { next: here, subject: 'y' } : { next: here }),
    };
  }
  if (!session.bootstrap) return { kind: 'redirect', to: href('bootstrap', {}, { next: here }) };

  if (route.name === 'root') return { kind: 'redirect', to: landingOf(session) };

  if (!isSubject && route.audience === 'subject') {
    return { kind: 'redirect', to: href('dashboard') };
  }
  if (isSubject && route.audience !== 'subject') {
    return {
      kind: 'redirect',
      to: route.subjectEquivalent
        ? equivalent(route, route.subjectEquivalent, place)
        : href('s:dashboard'),
    };
  }
  if (isSubject && subjectProfileIncomplete(session) && route.name !== 's:complete-profile') {
    return { kind: 'redirect', to: href('s:complete-profile', {}, { next: here }) };
  }
  // The organisation requires two-factor sign-in and this user has none yet (issue 30): every
  // screen but the set-up itself sends them there until it is done.
  if (totpSetupRequired(session) && route.name !== 'profile-totp') {
    return { kind: 'redirect', to: href('profile-totp') };
  }
  if (!canOpen(route, session)) {
    return { kind: 'redirect', to: dashboardOf(session), message: MESSAGES_UI.permissionDenied };
  }
  return allow;
}
