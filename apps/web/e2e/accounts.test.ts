import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, launch, loginUi, newPage } from './helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

const email = `owner-${Date.now()}@brightcare.test`;
const firstPassword = 'Kestrel-first-Pass-1';
const secondPassword = 'Kestrel-second-Pass-2';

describe('accounts', () => {
  it('creates a new customer organisation and signs its administrator in', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/signup');
    await page.getByRole('link', { name: 'Create an organisation account' }).click();
    await page.waitForURL('**/auth/new-customer-signup');
    await page.getByLabel('Organisation name').fill('Bright Care Ltd');
    await page.getByLabel('First name').fill('Bea');
    await page.getByLabel('Last name').fill('Bright');
    await page.getByLabel('Work email').fill(email);
    await page.locator('input[autocomplete="new-password"]').fill(firstPassword);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await expect.poll(() => page.getByTestId('user-menu').textContent()).toContain('Bea Bright');
    // A new sign-up is greeted 'Welcome', not 'Welcome back'.
    await page.getByText(/^Welcome, Bea/).waitFor();
    await context.close();
  });

  it('resets a forgotten password with the emailed link', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgotten your password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page
      .getByRole('main')
      .getByRole('status')
      .or(page.getByRole('main').getByRole('alert'))
      .waitFor();
    expect(await page.getByRole('main').textContent()).toContain(
      'Password reset e-mail has been sent.',
    );

    const ops = await apiAs('ops@kestrel.test');
    // The email is a job of the request's transaction: it lands a moment after the answer.
    const mails = async () =>
      (await ops.api.get('/api/ops/outbox/', { params: { to: email } })).json();
    await expect.poll(async () => (await mails()).count).toBeGreaterThan(0);
    const text: string = (await mails()).results[0]?.text ?? '';
    await ops.api.dispose();
    const link = /https?:\/\/\S+\/auth\/password-reset-confirm\?token=\S+/.exec(text)?.[0];
    expect(link, text).toBeTruthy();
    const { pathname, search } = new URL(link ?? '');
    await page.goto(`${pathname}${search}`);
    await page.locator('input[name="password"]').fill(secondPassword);
    await page.locator('input[name="confirm"]').fill('something-else-entirely');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.getByText('Passwords do not match').waitFor();
    await page.locator('input[name="confirm"]').fill(secondPassword);
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.getByText('Your password is set. You can now sign in.').waitFor();

    await loginUi(page, email, secondPassword);
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await context.close();
  });
});
