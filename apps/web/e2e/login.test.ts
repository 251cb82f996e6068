import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, loginUi, MFA_SECRET, newPage, totp } from './helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

describe('sign in', () => {
  it('signs a customer user in and lands on the dashboard after bootstrap', async () => {
    const { context, page } = await newPage(browser);
    const seen: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) seen.push(new URL(f.url()).pathname);
    });
    await loginUi(page, 'admin@acme.test');
    await page.waitForURL('**/dashboard');
    expect(seen).toContain('/bootstrap');
    await expect.poll(() => page.getByTestId('user-menu').isVisible()).toBe(true);
    await context.close();
  });

  it('says "Invalid login details" for a wrong password', async () => {
    const { context, page } = await newPage(browser);
    await loginUi(page, 'viewer@acme.test', 'not-the-password');
    await expect
      .poll(() => page.getByTestId('login-notice').textContent())
      .toBe('Invalid login details');
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it('asks for the authenticator code when TOTP is on, then signs in with it', async () => {
    const { context, page } = await newPage(browser);
    await loginUi(page, 'mfa@acme.test');
    await expect
      .poll(() => page.getByTestId('login-notice').textContent())
      .toBe('MFA token required');
    await page.getByLabel('Authenticator code').fill(totp(MFA_SECRET));
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.waitForURL('**/dashboard');
    await context.close();
  });

  it('signs a subject in to the subject dashboard', async () => {
    const { context, page } = await newPage(browser);
    await loginUi(page, 'subject@example.test');
    await page.waitForURL('**/s/dashboard');
    await context.close();
  });
});
