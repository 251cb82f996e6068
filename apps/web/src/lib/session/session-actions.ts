import type { LoginOut, OpsSessionOut } from '@kestrel/domain';
import { LIMITS } from '@kestrel/domain';
import { type ApiErrorBody, onFailedResponse, request, setCsrfToken } from '../../api/client';
import { emitSessionReset, getSession, setSession } from './session-store';
import type { CheckSessionResponse, MaintenanceWindow, UserType } from './types';

export const SESSION_POLL_MS = LIMITS.sessionPollSeconds * 1000;

function maintenanceWindowOf(body: ApiErrorBody): MaintenanceWindow | null {
  const w = body.maintenance_window;
  if (typeof w !== 'object' || w === null) return null;
  const { start, end, warning_start } = w as Record<string, unknown>;
  if (typeof start !== 'string' || typeof end !== 'string') return null;
  return { start, end, warning_start: typeof warning_start === 'string' ? warning_start : null };
}

/** Forgets the user locally (the server session is already gone or is ended separately). */
export function localLogout(): void {
  setSession({
    status: 'logged-out',
    userType: null,
    sessionCustomer: null,
    activeFlags: 0,
    bootstrap: null,
  });
  emitSessionReset();
}

const believedLoggedIn = () => {
  const { status } = getSession();
  return status === 'logged-in' || status === 'persisted-locally';
};

let firstCheck: Promise<void> | null = null;

// A login, logout or ops switch gives the browser a new session and ends the old one. A
// check-session sent with the old cookie answers 'not signed in' (or the old customer), so an
// answer from a check that was in flight across a change is stale: it is dropped, not applied.
let sessionEpoch = 0;
let changingSession = 0;
let currentChange: Promise<unknown> = Promise.resolve();

async function changeSession<T>(send: () => Promise<T>): Promise<T> {
  sessionEpoch++;
  changingSession++;
  const sent = send();
  currentChange = sent.catch(() => undefined);
  try {
    return await sent;
  } finally {
    changingSession--;
    sessionEpoch++;
  }
}

const staleSince = (epoch: number) => epoch !== sessionEpoch || changingSession > 0;

/** The first check-session of the page, started once (main.tsx starts it before React renders). */
export function initialSessionCheck(): Promise<void> {
  firstCheck ??= checkSession();
  return firstCheck;
}

/** Tests: the next initialSessionCheck() asks the server again. */
export function forgetInitialSessionCheck(): void {
  firstCheck = null;
}

/**
 * GET check-session and apply spec point 4: unauthenticated while believed logged in logs out;
 * 403 logs out; 503 only updates the maintenance state.
 */
export async function checkSession(): Promise<void> {
  const epoch = sessionEpoch;
  const r = await request<CheckSessionResponse>('GET', '/api/accounts/check-session/');
  if (staleSince(epoch)) {
    // Asked again once the change is done, with the new session: a page's first check must
    // still settle what the app believes (it stays 'persisted-locally' until a check answers).
    await currentChange;
    return checkSession();
  }
  if (r.ok) {
    const s = r.data;
    setCsrfToken(s.csrf_token);
    if (s.authenticated) {
      const current = getSession();
      const changedUser =
        current.status === 'logged-in' &&
        (current.userType !== s.user_type || current.sessionCustomer !== s.session_customer);
      setSession({
        status: 'logged-in',
        userType: s.user_type,
        sessionCustomer: s.session_customer,
        activeFlags: s.active_flags,
        maintenanceWindow: s.maintenance_window,
        down: false,
        ...(changedUser ? { bootstrap: null } : {}),
      });
    } else {
      if (believedLoggedIn()) localLogout();
      setSession({
        status: 'logged-out',
        maintenanceWindow: s.maintenance_window,
        down: false,
      });
    }
    return;
  }
  if (r.status === 503) {
    setSession({ down: true, maintenanceWindow: maintenanceWindowOf(r.data) });
    return;
  }
  if (r.status === 403 || r.status === 401) {
    localLogout();
    return;
  }
  // Network failure or server error: only a first check with nothing known is an error state.
  if (getSession().status === 'unknown') setSession({ status: 'error' });
}

export type LoginOutcome =
  | { kind: 'ok'; userType: UserType }
  | { kind: 'mfa' }
  | { kind: 'invalid' }
  | { kind: 'throttled'; retryAfter: number | null }
  | { kind: 'failed'; status: number; body: ApiErrorBody };

/** POST login. 400 means a second-factor code is needed; 401 wrong details. */
export async function login(values: {
  username: string;
  password: string;
  totp?: string;
}): Promise<LoginOutcome> {
  const body = values.totp ? values : { username: values.username, password: values.password };
  const r = await changeSession(() => request<LoginOut>('POST', '/api/accounts/login/', { body }));
  if (r.ok) {
    setCsrfToken(r.data.csrf_token);
    setSession({ status: 'logged-in', userType: r.data.user_type, bootstrap: null, down: false });
    // Picks up session_customer and the active flag count.
    await checkSession();
    return { kind: 'ok', userType: r.data.user_type };
  }
  if (r.status === 400 && 'totp' in r.data) return { kind: 'mfa' };
  if (r.status === 401) return { kind: 'invalid' };
  if (r.status === 429) return { kind: 'throttled', retryAfter: r.retryAfter ?? null };
  return { kind: 'failed', status: r.status, body: r.data };
}

/** Marks a session that the server has just logged in (signup, claim account). */
export async function adoptNewSession(csrfToken?: string): Promise<void> {
  // Checks sent before the server's change carry the old session: their answers are stale.
  sessionEpoch++;
  if (csrfToken) setCsrfToken(csrfToken);
  setSession({ bootstrap: null });
  await checkSession();
}

export async function logout(): Promise<void> {
  await changeSession(() => request('POST', '/api/accounts/logout/', { expect: 204 }));
  localLogout();
  // A fresh anonymous session brings the CSRF token the next login needs.
  await checkSession();
}

/** Ops staff act inside one customer at a time; each change re-bootstraps the app. */
export async function startOpsSession(customer: number): Promise<boolean> {
  const r = await changeSession(() =>
    request<OpsSessionOut>('POST', '/api/ops/session/', { body: { customer } }),
  );
  if (!r.ok) return false;
  setCsrfToken(r.data.csrf_token);
  emitSessionReset();
  setSession({ sessionCustomer: r.data.session_customer, bootstrap: null });
  return true;
}

export async function endOpsSession(): Promise<boolean> {
  const r = await changeSession(() => request<OpsSessionOut>('DELETE', '/api/ops/session/'));
  if (!r.ok) return false;
  setCsrfToken(r.data.csrf_token);
  emitSessionReset();
  setSession({ sessionCustomer: null, bootstrap: null });
  return true;
}

/** Any 503 puts the app in maintenance; any 401 while logged in re-checks the session. */
export function watchResponses(): () => void {
  return onFailedResponse((status, body, path) => {
    if (status === 503 && maintenanceWindowOf(body)) {
      setSession({ down: true, maintenanceWindow: maintenanceWindowOf(body) });
    } else if (status === 401 && getSession().status === 'logged-in' && !path.includes('/login/')) {
      void checkSession();
    }
  });
}

/** Polls check-session every 5 s while the tab is visible, and at once when it becomes visible. */
export function startSessionPolling(intervalMs = SESSION_POLL_MS): () => void {
  const visible = () => document.visibilityState === 'visible';
  const timer = setInterval(() => {
    if (visible()) void checkSession();
  }, intervalMs);
  const onVisibility = () => {
    if (visible()) void checkSession();
  };
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}
