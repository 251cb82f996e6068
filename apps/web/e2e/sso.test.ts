import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RunningDevProvider,
  startDevProvider,
} from '../../server/src/providers/oidc/test-driver';
import { newWorld, type World } from './fixtures';
import {
  type Api,
  launch,
  lookAtWidths,
  newPage,
  reloadInScheme,
  send,
  serverPort,
  setDark,
} from './helpers';

// Organisation sign-in (issue 30): a user of an organisation with OpenID Connect signs in
// through a real local provider (oidc-provider, on a free port of this test) in Chromium, on the
// provider's own sign-in page, and lands on the dashboard; an unknown email lands on
// /auth/social-error with its reason. Login and error (signed out: light) and the settings (light
// and dark) at 1280 and 360.

const shots = '/tmp/shots/sso';
mkdirSync(shots, { recursive: true });
const CLIENT_SECRET = 'e2e-client-secret-0123456789';

let browser: Browser;
let world: World;
let admin: Api;
let idp: RunningDevProvider;
let domain: string;

beforeAll(async () => {
  browser = await launch();
  const port = serverPort();
  [world, idp] = await Promise.all([
    newWorld({
      staff: [
        { key: 'admin', role: 'admin' },
        { key: 'sam', role: 'viewer', firstName: 'Sam' },
      ],
    }),
    startDevProvider({
      clients: [
        {
          clientId: 'kestrel-e2e',
          clientSecret: CLIENT_SECRET,
          redirectUris: ['localhost', '127.0.0.1'].map((h) => `http://${h}:${port}/auth/callback`),
        },
      ],
    }),
  ]);
  domain = world.username('sam').split('@')[1] ?? '';
  admin = await world.api('admin');
  await send(admin, 'put', '/api/sso-config/', {
    issuer: idp.issuer,
    client_id: 'kestrel-e2e',
    client_secret: CLIENT_SECRET,
    allowed_domains: [domain],
    password_allowed: true,
    enabled: true,
  });
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await idp?.close();
  await browser?.close();
});

/** From the login page through the provider's sign-in page, as `email`. */
async function organisationSignIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign in with your organisation' }).click();
  await page.waitForURL((u) => u.href.startsWith(idp.issuer));
  await expect.poll(() => page.locator('input[name="email"]').inputValue()).toBe(email);
  await page.locator('input[name="password"]').fill('anything at all');
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('sign-in through the organisation', () => {
  it('a user of the organisation signs in at its provider and lands on the dashboard', async () => {
    const { context, page } = await newPage(browser);
    await organisationSignIn(page, world.username('sam'));
    await page.waitForURL((u) => u.pathname === '/dashboard' || u.pathname === '/', {
      timeout: 30_000,
    });
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).first().textContent())
      .toMatch(/Dashboard|Welcome|Sam/i);
    const session = await (await page.request.get('/api/accounts/check-session/')).json();
    expect(session).toMatchObject({ authenticated: true, session_customer: world.customer.id });
    await context.close();
  });

  // Once in three CI-mode runs (session 20) this reached the error page without a reason: the
  // callback page posted before the page's first check-session had answered, so without a CSRF
  // token (refused with no reason). The page now waits for that answer (sso.test.tsx).
  it('an unknown email of the domain lands on the error page with its reason', async () => {
    const { context, page } = await newPage(browser);
    await organisationSignIn(page, `nobody@${domain}`);
    await page.waitForURL((u) => u.pathname === '/auth/social-error');
    expect(new URL(page.url()).searchParams.get('reason')).toBe('unknown_user');
    await expect
      .poll(() => page.getByTestId('sso-error-reason').textContent())
      .toContain('There is no account for this email address in your organisation');
    // signed-out pages are light by design (dark mode is a signed-in profile's: public-layout)
    await lookAtWidths(page, shots, 'social-error');
    await context.close();
  });

  it('the login page offers the organisation sign-in (light and dark)', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with your organisation' }).click();
    // no email yet: the field says what to do
    await expect
      .poll(() => page.getByText('Enter your work email address').count())
      .toBeGreaterThan(0);
    // signed-out pages are light by design (dark mode is a signed-in profile's: public-layout)
    await lookAtWidths(page, shots, 'login');
    await context.close();
  });

  it('the administrator sees the settings on the organisation account', async () => {
    const { context, page } = await world.signedIn(browser, 'admin');
    await page.goto('/customer-account');
    // the organisation account shows the card to whoever may change the organisation; a signed-in
    // screen follows the profile's dark mode (not the browser's), so each scheme is a reload
    for (const scheme of ['light', 'dark'] as const) {
      await reloadInScheme(page, admin, scheme);
      await page.getByTestId('sso-settings').waitFor();
      await expect.poll(() => page.getByLabel('Issuer').inputValue()).toBe(idp.issuer);
      await page.getByRole('button', { name: 'Test discovery' }).click();
      await expect
        .poll(() => page.getByTestId('sso-discovery').textContent())
        .toContain('answered its discovery document');
      await lookAtWidths(page, shots, `settings-${scheme}`);
    }
    await setDark(admin, false);
    await context.close();
  });
});
