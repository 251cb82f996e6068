import { SSO_REASON_DEFAULT, SSO_REASONS } from '@kestrel/domain';
import { screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setCsrfToken } from '../../api/client';
import { forgetInitialSessionCheck } from '../../lib/session/session-actions';
import { resetSession } from '../../lib/session/session-store';
import { mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { SsoCallback } from './sso-callback';
import { SsoError } from './sso-error';
import { parseDomains } from './sso-settings';

afterEach(() => {
  resetSession();
  forgetInitialSessionCheck();
  setCsrfToken('');
  vi.unstubAllGlobals();
});

function render(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/auth/callback', Component: SsoCallback },
      { path: '/auth/social-error', Component: SsoError },
      { path: '/login', element: <p>login</p> },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

describe('organisation sign-in pages', () => {
  it('says the reason of a failure in its sentence, the default for anything else', async () => {
    render('/auth/social-error?reason=deactivated_user');
    expect(await screen.findByText(SSO_REASONS.deactivated_user)).toBeTruthy();
  });

  it('says the default sentence for an unknown reason', async () => {
    render('/auth/social-error?reason=whatever');
    expect(await screen.findByText(SSO_REASON_DEFAULT)).toBeTruthy();
  });

  it('posts code and state once and goes to the error page with the server’s reason', async () => {
    const calls = mockFetch(() => ({
      status: 400,
      body: { reason: ['unknown_user'], non_field_errors: ['x'] },
    }));
    const router = render('/auth/callback?code=abc&state=1.xyz&iss=http%3A%2F%2Fidp');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/social-error'));
    expect(router.state.location.search).toBe('?reason=unknown_user');
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => c.url)).toEqual(['/api/accounts/sso/callback/']);
    expect(posts[0]?.body).toEqual({ state: '1.xyz', code: 'abc', iss: 'http://idp' });
  });

  it('waits for the first session check so the callback carries its CSRF token', async () => {
    // The page's check-session answers late (a loaded server): the callback must not post first.
    const gate: { open?: () => void } = {};
    const late = new Promise<void>((resolve) => {
      gate.open = resolve;
    });
    const calls = mockFetch(async (call) => {
      if (call.url === '/api/accounts/check-session/') {
        await late;
        return { status: 200, body: { authenticated: false, csrf_token: 'tok-1' } };
      }
      return { status: 400, body: { reason: ['unknown_user'] } };
    });
    const router = render('/auth/callback?code=abc&state=1.xyz');
    await waitFor(() =>
      expect(calls.some((c) => c.url === '/api/accounts/check-session/')).toBe(true),
    );
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    gate.open?.();
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/social-error'));
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => c.headers['x-csrftoken'])).toEqual(['tok-1']);
  });

  it('asks for the TOTP code when the server needs it', async () => {
    mockFetch(() => ({ status: 400, body: { totp: ['MFA token required'] } }));
    render('/auth/callback?code=abc&state=1.xyz');
    expect(await screen.findByRole('textbox', { name: /Authenticator code/ })).toBeTruthy();
  });

  it('reads typed domains', () => {
    expect(parseDomains(' Example.com, corp.test\nexample.com ;x.io ')).toEqual([
      'example.com',
      'corp.test',
      'x.io',
    ]);
  });
});
