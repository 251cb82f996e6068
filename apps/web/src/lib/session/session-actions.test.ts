import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getCsrfToken } from '../../api/client';
import { mockFetch } from '../../test/fetch-mock';
import { checkSession, login, startOpsSession, startSessionPolling } from './session-actions';
import { getSession, resetSession, setSession } from './session-store';

const answer = (over: Record<string, unknown> = {}) => ({
  authenticated: true,
  csrf_token: 'csrf-a',
  user_type: 'ProductUser',
  session_customer: 1,
  active_flags: 2,
  maintenance_window: null,
  ...over,
});

beforeEach(() => {
  localStorage.clear();
  resetSession();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('check-session', () => {
  it('logs in from an authenticated answer, keeps the CSRF token and persists locally', async () => {
    mockFetch(() => ({ status: 200, body: answer() }));
    await checkSession();
    expect(getSession()).toMatchObject({
      status: 'logged-in',
      userType: 'ProductUser',
      sessionCustomer: 1,
      activeFlags: 2,
    });
    expect(getCsrfToken()).toBe('csrf-a');
    expect(JSON.parse(localStorage.getItem('kestrel.session') ?? '{}')).toEqual({
      userType: 'ProductUser',
    });
    resetSession();
    expect(getSession().status).toBe('persisted-locally');
  });

  it('logs out when unauthenticated while believed logged in', async () => {
    setSession({ status: 'logged-in', userType: 'ProductUser', bootstrap: null });
    mockFetch(() => ({ status: 200, body: answer({ authenticated: false, user_type: null }) }));
    await checkSession();
    expect(getSession()).toMatchObject({ status: 'logged-out', userType: null });
    expect(localStorage.getItem('kestrel.session')).toBeNull();
  });

  it('logs out on 403', async () => {
    setSession({ status: 'logged-in', userType: 'ProductUser' });
    mockFetch(() => ({ status: 403, body: { detail: 'Forbidden' } }));
    await checkSession();
    expect(getSession().status).toBe('logged-out');
  });

  it('only updates the maintenance state on 503', async () => {
    setSession({ status: 'logged-in', userType: 'ProductUser' });
    const window = {
      start: '2026-01-01T10:00:00Z',
      end: '2026-01-01T11:00:00Z',
      warning_start: '2026-01-01T09:00:00Z',
    };
    mockFetch(() => ({ status: 503, body: { detail: 'Maintenance', maintenance_window: window } }));
    await checkSession();
    expect(getSession()).toMatchObject({
      status: 'logged-in',
      down: true,
      maintenanceWindow: window,
    });
  });

  it('is an error state when the first check cannot reach the server', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await checkSession();
    expect(getSession().status).toBe('error');
  });

  it('polls every 5 s only while the tab is visible', async () => {
    vi.useFakeTimers();
    const calls = mockFetch(() => ({ status: 200, body: answer() }));
    let state: DocumentVisibilityState = 'visible';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => state);
    const stop = startSessionPolling();
    await vi.advanceTimersByTimeAsync(15_000);
    expect(calls).toHaveLength(3);
    state = 'hidden';
    await vi.advanceTimersByTimeAsync(15_000);
    expect(calls).toHaveLength(3);
    state = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(4);
    stop();
    await vi.advanceTimersByTimeAsync(15_000);
    expect(calls).toHaveLength(4);
  });
});

describe('login', () => {
  it('sends the CSRF token and asks for the code on 400', async () => {
    const calls = mockFetch(() => ({ status: 400, body: { totp: ['MFA token required'] } }));
    expect(await login({ username: 'mfa@acme.test', password: 'x' })).toEqual({ kind: 'mfa' });
    expect(calls[0]?.body).toEqual({ username: 'mfa@acme.test', password: 'x' });
  });
  it('reports wrong details on 401', async () => {
    mockFetch(() => ({ status: 401, body: { detail: 'Invalid login details' } }));
    expect(await login({ username: 'a', password: 'b' })).toEqual({ kind: 'invalid' });
    mockFetch(() => ({
      status: 429,
      body: { detail: 'Request was throttled. Expected available in 230 seconds.' },
      headers: { 'Retry-After': '230' },
    }));
    expect(await login({ username: 'a', password: 'b' })).toEqual({
      kind: 'throttled',
      retryAfter: 230,
    });
  });
  it('adopts the new CSRF token and session on success', async () => {
    mockFetch((c) =>
      c.url.includes('login')
        ? { status: 200, body: { csrf_token: 'after-login', user_type: 'SubjectUser' } }
        : {
            status: 200,
            body: answer({
              csrf_token: 'after-check',
              user_type: 'SubjectUser',
              session_customer: null,
            }),
          },
    );
    expect(
      await login({ username: 'subject@example.test', password: 'p', totp: '123456' }),
    ).toEqual({
      kind: 'ok',
      userType: 'SubjectUser',
    });
    expect(getSession()).toMatchObject({ status: 'logged-in', userType: 'SubjectUser' });
    expect(getCsrfToken()).toBe('after-check');
  });
});

describe('a check-session in flight across a session change', () => {
  it('is dropped when the ops switch ends the session it was sent with', async () => {
    setSession({ status: 'logged-in', userType: 'ProductUser', sessionCustomer: null });
    let answerCheck: (a: { status: number; body: unknown }) => void = () => {};
    let checks = 0;
    mockFetch((call) => {
      if (call.url.includes('check-session')) {
        checks++;
        if (checks > 1)
          return { status: 200, body: answer({ session_customer: 7, active_flags: 5 }) };
        return new Promise((resolve) => {
          answerCheck = resolve;
        });
      }
      return { status: 200, body: { csrf_token: 'csrf-new', session_customer: 7 } };
    });
    const polled = checkSession();
    await startOpsSession(7);
    // The server ended the old session: the poll sent with its cookie answers 'not signed in'.
    answerCheck({ status: 200, body: answer({ authenticated: false, user_type: null }) });
    await polled;
    // the stale answer dropped; asked again with the new session
    expect(checks).toBe(2);
    expect(getSession()).toMatchObject({ status: 'logged-in', sessionCustomer: 7, activeFlags: 5 });
  });

  it('still applies an answer sent after the change', async () => {
    setSession({ status: 'logged-in', userType: 'ProductUser', sessionCustomer: null });
    mockFetch((call) =>
      call.url.includes('check-session')
        ? { status: 200, body: answer({ session_customer: 7 }) }
        : { status: 200, body: { csrf_token: 'csrf-new', session_customer: 7 } },
    );
    await startOpsSession(7);
    await checkSession();
    expect(getSession()).toMatchObject({ status: 'logged-in', sessionCustomer: 7, activeFlags: 2 });
  });
});
