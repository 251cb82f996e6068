import { describe, expect, it } from 'vitest';
import type { SessionState } from '../lib/session/types';
import { base, loggedOut, product, productIn, subject, subjectIn } from '../test/sessions';
import { decideNavigation } from './navigation';
import { ROUTES, type RouteDef, routeByName } from './route-table';

const route = (name: string): RouteDef => {
  const r = routeByName(name);
  if (!r) throw new Error(name);
  return r;
};
const at = (pathname: string, search = '') => ({ pathname, search });

describe('route table', () => {
  it('has unique names and paths', () => {
    expect(new Set(ROUTES.map((r) => r.name)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(ROUTES.length);
  });
  it('names the spec routes', () => {
    for (const name of [
      'dashboard',
      's:dashboard',
      'subject-case-detail',
      'case-detail',
      'login',
      'bootstrap',
      'ops:dashboard',
      's:complete-profile',
    ]) {
      expect(routeByName(name), name).toBeDefined();
    }
    expect(route('subject-case-detail').path).toBe('/s/cases/:id');
  });
  it('points every subject equivalent at a subject route', () => {
    for (const r of ROUTES.filter((x) => x.subjectEquivalent)) {
      expect(routeByName(r.subjectEquivalent ?? '')?.audience, r.name).toBe('subject');
    }
  });
});

describe('navigation rules', () => {
  it('sends an unauthenticated user to login with next', () => {
    expect(decideNavigation(route('case-detail'), at('/cases/4', '?tab=x'), loggedOut)).toEqual({
      kind: 'redirect',
      to: '/login?next=%2Fcases%2F4%3Ftab%3Dx',
    });
  });
  it('adds subject=y for /s/ paths', () => {
    expect(decideNavigation(route('s:cases'), at('/s/cases'), loggedOut)).toEqual({
      kind: 'redirect',
      to: '/login?next=%2Fs%2Fcases&subject=y',
    });
  });
  it('allows public routes without a session', () => {
    expect(
      decideNavigation(route('password-reset'), at('/auth/password-reset'), loggedOut).kind,
    ).toBe('allow');
    expect(decideNavigation(route('payment-portal'), at('/payment-portal/3'), loggedOut).kind).toBe(
      'allow',
    );
  });
  it('waits while the session is unknown or only persisted locally', () => {
    for (const status of ['unknown', 'persisted-locally'] as const) {
      expect(decideNavigation(route('cases'), at('/cases'), { ...base, status }).kind).toBe('wait');
    }
  });
  it('sends an authenticated user to bootstrap first', () => {
    const s: SessionState = { ...base, status: 'logged-in', userType: 'ProductUser' };
    expect(decideNavigation(route('cases'), at('/cases'), s)).toEqual({
      kind: 'redirect',
      to: '/bootstrap?next=%2Fcases',
    });
  });
  it('sends the root to the dashboard or s:dashboard', () => {
    expect(decideNavigation(route('root'), at('/'), productIn())).toEqual({
      kind: 'redirect',
      to: '/dashboard',
    });
    expect(decideNavigation(route('root'), at('/'), subjectIn())).toEqual({
      kind: 'redirect',
      to: '/s/dashboard',
    });
  });
  it('lands operations staff on their dashboard, not an empty customer dashboard', () => {
    const ops = productIn(product({ is_ops: true }));
    expect(decideNavigation(route('root'), at('/'), ops)).toEqual({
      kind: 'redirect',
      to: '/ops/dashboard',
    });
    // Inside a customer session, the root is that customer's dashboard.
    expect(decideNavigation(route('root'), at('/'), { ...ops, sessionCustomer: 4 })).toEqual({
      kind: 'redirect',
      to: '/dashboard',
    });
  });
  it('keeps product users out of /s/', () => {
    expect(decideNavigation(route('s:cases'), at('/s/cases'), productIn())).toEqual({
      kind: 'redirect',
      to: '/dashboard',
    });
  });
  it('keeps subjects in /s/', () => {
    expect(decideNavigation(route('cases'), at('/cases'), subjectIn())).toEqual({
      kind: 'redirect',
      to: '/s/dashboard',
    });
    expect(decideNavigation(route('ops:dashboard'), at('/ops/dashboard'), subjectIn())).toEqual({
      kind: 'redirect',
      to: '/s/dashboard',
    });
  });
  it('sends subjects on public portal and lms routes to the /s/ equivalents', () => {
    expect(
      decideNavigation(route('application-portal'), at('/application-portals/7'), subjectIn()),
    ).toEqual({
      kind: 'redirect',
      to: '/s/application-portals/7',
    });
    expect(
      decideNavigation(route('self-initiate'), at('/self-initiate/3/care', '?ref=a'), subjectIn()),
    ).toEqual({
      kind: 'redirect',
      to: '/s/self-initiate/3/care?ref=a',
    });
    expect(decideNavigation(route('lms-licence-group'), at('/lms/5/9'), subjectIn())).toEqual({
      kind: 'redirect',
      to: '/s/lms/5/9',
    });
  });
  it('lets anonymous visitors use public portal routes', () => {
    expect(
      decideNavigation(route('application-portal'), at('/application-portals/7'), loggedOut).kind,
    ).toBe('allow');
  });
  it('denies a missing permission with the message and the dashboard', () => {
    expect(decideNavigation(route('audit-log'), at('/audit-log'), productIn())).toEqual({
      kind: 'redirect',
      to: '/dashboard',
      message: 'Permission denied',
    });
    expect(decideNavigation(route('cases'), at('/cases'), productIn()).kind).toBe('allow');
  });
  it('denies a missing entitlement', () => {
    const p = product({ session_permissions: ['subjects.view_subject'] });
    expect(
      decideNavigation(route('subject-duplicates'), at('/subjects/duplicates'), productIn(p)),
    ).toEqual({
      kind: 'redirect',
      to: '/dashboard',
      message: 'Permission denied',
    });
    expect(
      decideNavigation(
        route('subject-duplicates'),
        at('/subjects/duplicates'),
        productIn(p, ['subject_dedup']),
      ).kind,
    ).toBe('allow');
  });
  it('sends a subject without date of birth or terms to complete-profile with next', () => {
    for (const s of [subject({ dob: null }), subject({ terms_agreed_at: null })]) {
      expect(decideNavigation(route('s:cases'), at('/s/cases'), subjectIn(s))).toEqual({
        kind: 'redirect',
        to: '/s/complete-profile?next=%2Fs%2Fcases',
      });
      expect(
        decideNavigation(route('s:complete-profile'), at('/s/complete-profile'), subjectIn(s)).kind,
      ).toBe('allow');
    }
  });
  it('sends a user whose organisation requires two-factor to set it up first', () => {
    const needs = productIn(product({ totp_setup_required: true }));
    expect(decideNavigation(route('cases'), at('/cases'), needs)).toEqual({
      kind: 'redirect',
      to: '/profile/totp',
    });
    expect(decideNavigation(route('profile-totp'), at('/profile/totp'), needs).kind).toBe('allow');
    expect(decideNavigation(route('cases'), at('/cases'), productIn()).kind).toBe('allow');
  });
  it('sends a signed-in user away from the login page to next', () => {
    expect(decideNavigation(route('login'), at('/login', '?next=%2Fcases'), productIn())).toEqual({
      kind: 'redirect',
      to: '/cases',
    });
    expect(
      decideNavigation(route('login'), at('/login', '?next=https%3A%2F%2Fevil.test'), productIn()),
    ).toEqual({ kind: 'redirect', to: '/' });
  });
  it('shows the 404 page for unknown paths', () => {
    expect(decideNavigation(undefined, at('/nope'), loggedOut).kind).toBe('allow');
    expect(decideNavigation(undefined, at('/nope'), productIn()).kind).toBe('allow');
  });
  it('loads the session first for a signed-in 404, which keeps the app frame', () => {
    const s: SessionState = { ...base, status: 'logged-in', userType: 'ProductUser' };
    expect(decideNavigation(undefined, at('/nope'), s)).toEqual({
      kind: 'redirect',
      to: '/bootstrap?next=%2Fnope',
    });
  });
  it('shows the error state when the first session check failed', () => {
    expect(decideNavigation(route('cases'), at('/cases'), { ...base, status: 'error' }).kind).toBe(
      'error',
    );
  });
});
