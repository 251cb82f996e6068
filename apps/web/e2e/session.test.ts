import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, WORLD_PASSWORD, type World } from './fixtures';
import { launch, loginUi, newPage, place } from './helpers';

// Sessions end here (logout, sign out, an ops session per customer): the users are a world's own
// (e2e/fixtures.ts), so no other file's signed-in demo user loses its session.
let browser: Browser;
let world: World;
beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    customerName: `Sessions ${Date.now().toString(36)}`,
    staff: [
      { key: 'admin', role: 'admin' },
      { key: 'viewer', role: 'viewer' },
    ],
    ops: true,
  });
});
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

describe('session', () => {
  it('logs out within one poll when the session ends on the server while the page is open', async () => {
    const { context, page } = await newPage(browser);
    await loginUi(page, world.username('admin'), WORLD_PASSWORD, '/login?next=%2Fcases');
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
    await loginUi(page, world.username('viewer'), WORLD_PASSWORD);
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
    await loginUi(page, world.username('ops'), WORLD_PASSWORD, '/login?next=%2Fops%2Fdashboard');
    await page.waitForURL('**/ops/dashboard');
    const seen: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) seen.push(new URL(f.url()).pathname);
    });
    await page.getByTestId('customer-picker').filter({ visible: true }).click();
    await page.getByRole('option', { name: world.customer.name }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    expect(seen).toContain('/bootstrap');
    await expect
      .poll(() => page.getByTestId('ops-strip').textContent())
      .toContain(`acting for ${world.customer.name}`);
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
