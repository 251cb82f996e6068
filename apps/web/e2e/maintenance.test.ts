import type { APIRequestContext, Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, launch, loginUi, newPage, screenshot } from './helpers';

const TEXT =
  'The site is currently down for maintenance. We will be back soon. Thank you for your patience.';

let browser: Browser;
let ops: { api: APIRequestContext; csrf: () => string };
const created: number[] = [];

const minutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

async function window(start: number, end: number, warning: number) {
  const res = await ops.api.post('/api/ops/maintenance-windows/', {
    data: { start: minutes(start), end: minutes(end), warning_start: minutes(warning) },
    headers: { 'X-CSRFToken': ops.csrf() },
  });
  expect(res.status(), await res.text()).toBe(201);
  created.push((await res.json()).id);
}

beforeAll(async () => {
  browser = await launch();
  ops = await apiAs('ops@kestrel.test');
});
afterEach(async () => {
  // Ops calls are not blocked by maintenance, so the windows can always be removed.
  while (created.length) {
    const id = created.pop();
    await ops.api.delete(`/api/ops/maintenance-windows/${id}/`, {
      headers: { 'X-CSRFToken': ops.csrf() },
    });
  }
});
afterAll(async () => {
  await ops.api.dispose();
  await browser.close();
});

describe('maintenance', () => {
  it('replaces the whole app with the maintenance page while a window is open', async () => {
    await window(-1, 30, -5);
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await page.getByTestId('maintenance-message').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('maintenance-message').textContent()).toBe(TEXT);
    expect(await page.locator('input[name="username"]').count()).toBe(0);
    await screenshot(page, 'maintenance-localhost-desktop');
    await context.close();
  });

  it('still lets operations staff sign in during the window', async () => {
    await window(-1, 30, -5);
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Operations staff sign-in' }).click();
    await loginUi(page, 'ops@kestrel.test', undefined, '/login?staff=y&next=%2Fops%2Fdashboard');
    await page.waitForURL('**/ops/dashboard');
    await page.getByTestId('user-menu').waitFor();
    expect(await page.getByTestId('maintenance-message').count()).toBe(0);
    await context.close();
  });

  it('takes over an open page at the next session check', async () => {
    const { context, page } = await newPage(browser);
    await loginUi(page, 'admin@acme.test');
    await page.waitForURL('**/dashboard');
    await window(-1, 30, -5);
    await page.getByTestId('maintenance-message').waitFor({ timeout: 9_000 });
    expect(await page.getByTestId('maintenance-message').textContent()).toBe(TEXT);
    await context.close();
  });

  it('shows a warning banner from warning_start until start', async () => {
    await window(45, 90, -1);
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await page.getByTestId('maintenance-warning').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('maintenance-warning').textContent()).toMatch(
      /^Planned maintenance: the site will be unavailable from .+ until .+\.$/,
    );
    await page.locator('input[name="username"]').waitFor();
    await context.close();
  });

  it('shows no warning before warning_start', async () => {
    await window(90, 120, 60);
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await page.locator('input[name="username"]').waitFor();
    await page.waitForTimeout(500);
    expect(await page.getByTestId('maintenance-warning').count()).toBe(0);
    await context.close();
  });
});
