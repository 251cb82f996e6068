import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiAs,
  axeClean,
  launch,
  loginUi,
  lookLightAndDark,
  newPage,
  PHONE,
  setDark,
  settle,
} from './helpers';

// Operations' customers: one added with its administrator (the invitation in the outbox), an ops
// session into it started and ended from its page, an entitlement switched, a user deactivated.

const OPS = 'ops@kestrel.test';
const shots = '/tmp/shots/customers';
mkdirSync(shots, { recursive: true });

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await setDark(OPS, false);
  await browser?.close();
});

/** Light and dark at 1280 px, axe clean in both (the profile's dark mode, reloaded). */
async function look(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 860 });
  await lookLightAndDark(page, OPS, shots, name);
}

describe('ops customers', () => {
  it('adds a customer with its administrator, starts and ends an ops session, switches an entitlement, deactivates a user', async () => {
    const { context, page } = await newPage(browser);
    await loginUi(page, OPS, undefined, '/login?next=%2Fops%2Fcustomers');
    await page.waitForURL('**/ops/customers');
    await page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
    await page.getByRole('link', { name: /Harbour Homes Group/ }).waitFor();
    await look(page, 'list');
    await page.setViewportSize(PHONE);
    await settle(page);
    expect(await axeClean(page), 'list at 390').toEqual([]);
    await page.screenshot({ path: join(shots, 'list-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 860 });

    // Add: the customer and its first administrator.
    await page.getByRole('link', { name: 'Add customer' }).click();
    await page.waitForURL('**/ops/customers/add');
    await page.getByRole('heading', { name: 'Add customer', level: 1 }).waitFor();
    await look(page, 'add');
    const stamp = Date.now();
    const adminEmail = `bella-${stamp}@bakery.test`;
    await page.getByLabel(/^Name/).fill(`Bakehouse ${stamp}`);
    await page.getByLabel('Contact name').fill('Bella Baker');
    await page.getByLabel('Contact email').fill('office@bakery.test');
    await page.getByLabel('Contact phone').fill('0161 496 0999');
    await page.getByLabel(/^First name/).fill('Bella');
    await page.getByLabel(/^Last name/).fill('Baker');
    await page.getByLabel(/^Email/).fill(adminEmail);
    await page.getByRole('button', { name: 'Add customer' }).click();
    await page.waitForURL(/\/ops\/customers\/\d+$/);
    const id = Number(/\/ops\/customers\/(\d+)$/.exec(page.url())?.[1]);
    await page.getByRole('heading', { name: `Bakehouse ${stamp}`, level: 1 }).waitFor();

    // The invitation is in the outbox.
    const ops = await apiAs(OPS);
    await expect
      .poll(async () => {
        const box = await (
          await ops.api.get('/api/ops/outbox/', { params: { to: adminEmail } })
        ).json();
        return box.results?.[0]?.text ?? '';
      })
      .toContain('/auth/set-password?token=');
    await look(page, 'overview');

    // Start an ops session into it from its page, then end it.
    await page.getByRole('button', { name: 'Start ops session' }).click();
    await page.waitForURL('**/dashboard');
    await expect
      .poll(async () => (await page.request.get('/api/accounts/check-session/')).json())
      .toMatchObject({ session_customer: id });
    await page.goto(`/ops/customers/${id}`);
    await page.getByRole('button', { name: 'End ops session' }).click();
    await page.waitForURL(`**/ops/customers/${id}`);
    await page.getByRole('button', { name: 'Start ops session' }).waitFor();
    expect(
      (await (await page.request.get('/api/accounts/check-session/')).json()).session_customer,
    ).toBeNull();

    // Edit.
    await page
      .getByRole('navigation', { name: 'Customer pages' })
      .getByRole('link', { name: 'Edit' })
      .click();
    await page.waitForURL(`**/ops/customers/${id}/edit`);
    await page.getByLabel('Contact name').waitFor();
    await look(page, 'edit');

    // Entitlements: cycles switched on.
    await page
      .getByRole('navigation', { name: 'Customer pages' })
      .getByRole('link', { name: 'Entitlements' })
      .click();
    await page.waitForURL(`**/ops/customers/${id}/entitlements`);
    await look(page, 'entitlements');
    await page.getByRole('switch', { name: 'Cycles (repeat checks)' }).click();
    await expect
      .poll(
        async () => (await (await ops.api.get(`/api/ops/customers/${id}/`)).json()).entitlements,
      )
      .toEqual(['cycles']);

    // Users: the administrator deactivated.
    await page
      .getByRole('navigation', { name: 'Customer pages' })
      .getByRole('link', { name: 'Users' })
      .click();
    await page.waitForURL(`**/ops/customers/${id}/users`);
    await page.getByTestId(`user-${adminEmail}`).waitFor();
    await look(page, 'users');
    await page.getByRole('button', { name: `Deactivate ${adminEmail}` }).click();
    await expect
      .poll(() => page.getByTestId(`user-${adminEmail}`).textContent())
      .toContain('Deactivated');
    const users = await (await ops.api.get(`/api/ops/customers/${id}/users/`)).json();
    expect(users.results[0]).toMatchObject({
      email: adminEmail,
      is_active: false,
      status: 'deactivated',
    });
    await ops.api.dispose();
    await context.close();
  }, 300_000);
});
