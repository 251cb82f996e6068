import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiAs,
  axe,
  DESKTOP,
  type Host,
  launch,
  loginUi,
  newPage,
  PHONE,
  screenshot,
  steady,
} from './helpers';

// The screens of the demo itself, as its users see them: this file only reads, so it signs in
// as the demo users (the files that write use worlds of their own, e2e/fixtures.ts).
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

const brandOf: Record<Host, string> = {
  localhost: 'Kestrel Checks',
  '127.0.0.1': 'Harrier Vetting',
};
const viewports = { desktop: DESKTOP, phone: PHONE };

describe.each(['localhost', '127.0.0.1'] as const)('brand on %s', (host) => {
  it('shows its own brand on the login page, with no accessibility violations', async () => {
    for (const [size, viewport] of Object.entries(viewports)) {
      const { context, page } = await newPage(browser, { host, viewport });
      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      expect(await page.title()).toBe(`Sign in · ${brandOf[host]}`);
      await expect
        .poll(() =>
          page
            .getByText(brandOf[host], { exact: true })
            .filter({ visible: true })
            .first()
            .isVisible(),
        )
        .toBe(true);
      await screenshot(page, `login-${host}-${size}`);
      expect(await axe(page)).toEqual([]);
      await context.close();
    }
  });

  it('has no accessibility violations on the other public pages', async () => {
    const { context, page } = await newPage(browser, { host });
    for (const path of [
      '/signup',
      '/auth/new-customer-signup',
      '/auth/password-reset',
      '/auth/password-reset-confirm?token=abc',
      '/auth/set-password?token=abc',
      '/auth/claim-account?token=abc',
      '/auth/user-not-ready',
      '/auth/social-error',
      '/payment-portal/1',
      '/no/such/page',
    ]) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await axe(page), path).toEqual([]);
    }
    // Validation messages too (error colours on inputs).
    await page.goto('/auth/new-customer-signup');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Required').first().waitFor();
    expect(await axe(page), 'signup errors').toEqual([]);
    await context.close();
  });

  it.each([
    ['product', 'admin@acme.test', '/dashboard'],
    ['ops', 'ops@kestrel.test', '/ops/dashboard'],
    ['subject', 'subject@example.test', '/s/dashboard'],
  ])('renders the %s layout without accessibility violations', async (layout, user, path) => {
    const { context, page } = await newPage(browser, { host });
    await loginUi(page, user, undefined, `/login?next=${encodeURIComponent(path)}`);
    await page.waitForURL(`**${path}`);
    await page.getByTestId('user-menu').waitFor();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await axe(page)).toEqual([]);
    await screenshot(page, `${layout}-${host}-desktop`);
    await page.setViewportSize(PHONE);
    await steady(page);
    await screenshot(page, `${layout}-${host}-phone`);
    expect(await axe(page)).toEqual([]);
    await context.close();
  });
});

describe('dark mode from the profile', () => {
  it('renders the product layout dark, without accessibility violations', async () => {
    const viewer = await apiAs('viewer@acme.test');
    const set = (dark: boolean) =>
      viewer.api.put('/api/user/', {
        data: { dark_mode: dark },
        headers: { 'X-CSRFToken': viewer.csrf() },
      });
    expect((await set(true)).status()).toBe(200);
    try {
      const { context, page } = await newPage(browser);
      await loginUi(page, 'viewer@acme.test', undefined, '/login?next=%2Fsupport');
      await page.waitForURL('**/support');
      await page.getByTestId('user-menu').waitFor();
      await expect
        .poll(() =>
          page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme')),
        )
        .toBe('dark');
      expect(await axe(page)).toEqual([]);
      await screenshot(page, 'product-dark-localhost-desktop');
      await context.close();
    } finally {
      await set(false);
      await viewer.api.dispose();
    }
  });
});
