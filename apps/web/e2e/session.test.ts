import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, loginUi, newPage, place } from './helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

describe('session', () => {
  it('logs out within one poll when the session ends on the server while the page is open', async () => {
    const { context, page } = await newPage(browser);
    await loginUi(page, 'admin@acme.test', undefined, '/login?next=%2Fcases');
    await page.waitForURL('**/cases');
    // End the session from outside the app (same cookie): the server forgets it.
    const check = await (await page.request.get('/api/accounts/check-session/')).json();
    expect(check.authenticated).toBe(true);
    const ended = await page.request.post('/api/accounts/logout/', {
      headers: { 'X-CSRFToken': check.csrf_token },
    });
    expect(ended.status()).toBe(204);
    const started = Date.now();
    await page.waitForURL('**/login?**', { timeout: 12_000 });
    expect(Date.now() - started).toBeLessThan(5_000 + 3_000);
    expect(place(page)).toBe('/login?next=%2Fcases');
    expect(await page.evaluate(() => localStorage.getItem('kestrel.session'))).toBeNull();
    await context.close();
  });

  it('signs out from the account menu', async () => {
    const { context, page } = await newPage(browser);
    await loginUi(page, 'viewer@acme.test');
    await page.waitForURL('**/dashboard');
    await page.getByTestId('user-menu').click();
    await page.getByTestId('sign-out').click();
    await page.waitForURL('**/login');
    const check = await (await page.request.get('/api/accounts/check-session/')).json();
    expect(check.authenticated).toBe(false);
    await context.close();
  });

  it('starts and ends an ops session per customer, bootstrapping each time', async () => {
    const { context, page } = await newPage(browser);
    await loginUi(page, 'ops@kestrel.test', undefined, '/login?next=%2Fops%2Fdashboard');
    await page.waitForURL('**/ops/dashboard');
    const seen: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) seen.push(new URL(f.url()).pathname);
    });
    await page.getByTestId('customer-picker').filter({ visible: true }).click();
    await page.getByRole('option', { name: 'Acme Care Ltd' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    expect(seen).toContain('/bootstrap');
    await expect
      .poll(() => page.getByTestId('ops-strip').textContent())
      .toContain('acting for Acme Care Ltd');
    const during = await (await page.request.get('/api/accounts/check-session/')).json();
    expect(during.session_customer).not.toBeNull();
    seen.length = 0;
    await page.getByRole('button', { name: 'End customer session' }).click();
    // Back to operations' own work, outside any customer.
    await page.waitForURL('**/ops/outstanding-activities');
    expect(seen).toContain('/bootstrap');
    const after = await (await page.request.get('/api/accounts/check-session/')).json();
    expect(after.session_customer).toBeNull();
    await context.close();
  });
});
