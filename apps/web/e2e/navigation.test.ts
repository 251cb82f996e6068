import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, loginUi, newPage, place, signedIn } from './helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

describe('navigation rules', () => {
  it('sends an unauthenticated visitor to login with next, then on to the page after sign-in', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/cases/4?tab=activities');
    await page.waitForURL('**/login?**');
    expect(place(page)).toBe('/login?next=%2Fcases%2F4%3Ftab%3Dactivities');
    await loginUi(page, 'admin@acme.test', undefined, place(page));
    await page.waitForURL('**/cases/4?tab=activities');
    await context.close();
  });

  it('adds subject=y when the page was under /s/', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/s/cases');
    await page.waitForURL('**/login?**');
    expect(place(page)).toBe('/login?next=%2Fs%2Fcases&subject=y');
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('Sign in to your checks');
    await context.close();
  });

  it('lets anyone open public pages', async () => {
    const { context, page } = await newPage(browser);
    for (const path of [
      '/auth/password-reset',
      '/signup',
      '/payment-portal/1',
      '/application-portals/3',
    ]) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(place(page)).toBe(path);
    }
    await context.close();
  });

  it('sends the root to the dashboard of each user type', async () => {
    for (const [user, dashboard] of [
      ['admin@acme.test', '/dashboard'],
      ['subject@example.test', '/s/dashboard'],
    ] as const) {
      const { context, page } = await signedIn(browser, user);
      await page.goto('/');
      await page.waitForURL(`**${dashboard}`);
      expect(place(page)).toBe(dashboard);
      await context.close();
    }
  });

  it('keeps product users out of /s/', async () => {
    const { context, page } = await signedIn(browser, 'admin@acme.test');
    await page.goto('/s/cases');
    await page.waitForURL('**/dashboard');
    expect(place(page)).toBe('/dashboard');
    await context.close();
  });

  it('keeps subjects in /s/ and moves them to the /s/ portal and lms pages', async () => {
    const { context, page } = await signedIn(browser, 'subject@example.test');
    for (const [from, to] of [
      ['/cases', '/s/dashboard'],
      ['/ops/dashboard', '/s/dashboard'],
      ['/application-portals/7', '/s/application-portals/7'],
      ['/self-initiate/3/care-staff', '/s/self-initiate/3/care-staff'],
      ['/lms/council-list', '/s/lms/council-list'],
      ['/lms/5/9', '/s/lms/5/9'],
    ] as const) {
      await page.goto(from);
      await page.waitForURL(`**${to}`);
      expect(place(page), from).toBe(to);
    }
    await context.close();
  });

  it('says "Permission denied" and returns to the dashboard without the permission', async () => {
    const { context, page } = await signedIn(browser, 'viewer@acme.test');
    await page.goto('/audit-log');
    await page.waitForURL('**/dashboard');
    await expect.poll(() => page.getByText('Permission denied').isVisible()).toBe(true);
    await page.goto('/ops/customers');
    await page.waitForURL('**/dashboard');
    await context.close();
  });

  it('shows only the pages a user may open in the navigation', async () => {
    const admin = await signedIn(browser, 'admin@acme.test');
    await admin.page.goto('/dashboard');
    const nav = admin.page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Audit log' }).waitFor();
    await admin.context.close();
    const viewer = await signedIn(browser, 'viewer@acme.test');
    await viewer.page.goto('/dashboard');
    const viewerNav = viewer.page.getByRole('navigation', { name: 'Main' });
    await viewerNav.getByRole('link', { name: 'Cases' }).waitFor();
    expect(await viewerNav.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    expect(await viewerNav.getByRole('link', { name: 'Users' }).count()).toBe(0);
    await viewer.context.close();
  });

  it('shows a 404 page for unknown addresses', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/no/such/page');
    await expect.poll(() => page.getByTestId('not-found').isVisible()).toBe(true);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('Page not found');
    await context.close();
  });
});
