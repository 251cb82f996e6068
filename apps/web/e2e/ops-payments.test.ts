import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, launch, loginUi, lookLightAndDark, newPage, setDark } from './helpers';

// Operations' payments and maintenance (issue 29): refund a demo portal payment in part and then
// the rest (its status shows refunded), look at the product payments, and schedule a maintenance
// window whose warning banner then shows. Every screen at 1280 px, light and dark, axe clean.

const OLIVIA = 'ops@kestrel.test';
const WIDE = { width: 1280, height: 900 };
const shots = '/tmp/shots/payments';
mkdirSync(shots, { recursive: true });

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await setDark(OLIVIA, false);
  // no window left behind for the next file on this server
  const { api, csrf } = await apiAs(OLIVIA);
  const res = await api.get('/api/ops/maintenance-windows/');
  for (const w of ((await res.json()) as { results: { id: number }[] }).results) {
    await api.delete(`/api/ops/maintenance-windows/${w.id}/`, {
      headers: { 'X-CSRFToken': csrf() },
    });
  }
  await api.dispose();
  await browser?.close();
});

/** Light and dark at 1280 px, axe clean in both (the profile's dark mode, reloaded). */
const look = (page: Page, name: string) => lookLightAndDark(page, OLIVIA, shots, name);

const pad = (n: number) => String(n).padStart(2, '0');
/** A datetime-local value `m` minutes from now (the browser's zone: the tests run in UTC). */
function local(m: number) {
  const d = new Date(Date.now() + m * 60_000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

describe('ops payments and maintenance', () => {
  it('refunds a portal payment in part, then the rest', async () => {
    const { context, page } = await newPage(browser, { viewport: WIDE });
    await loginUi(page, OLIVIA);
    await page.waitForURL('**/ops/dashboard');
    await page.goto('/ops/portal-payments');
    await page.getByRole('heading', { name: 'Portal payments' }).waitFor();
    await page.getByText('pit_demo_payment_1').waitFor();
    await look(page, 'ops-portal-payments');

    await page.getByText('pit_demo_payment_1').click();
    await page.getByRole('heading', { name: 'Payment pit_demo_payment_1' }).waitFor();
    expect(await page.getByTestId('payment-state').textContent()).toBe('Paid');
    await look(page, 'ops-portal-payment');

    await page.getByLabel('Amount (£)').fill('1.50');
    await page.getByRole('button', { name: 'Refund amount' }).click();
    await expect
      .poll(() => page.getByTestId('payment-state').textContent())
      .toBe('Partly refunded');
    await page.getByText('Refunded: £1.50').waitFor();
    // more than is left is refused beside the amount
    await page.getByLabel('Amount (£)').fill('5');
    await page.getByRole('button', { name: 'Refund amount' }).click();
    await page.getByText('At most £2.00 is left to refund.').waitFor();

    await page.getByRole('button', { name: 'Refund all (£2.00)' }).click();
    await expect.poll(() => page.getByTestId('payment-state').textContent()).toBe('Refunded');
    await page.getByText('Refunded: £3.50').waitFor();
    expect(await page.getByRole('button', { name: /Refund/ }).count()).toBe(0);
    await page.getByRole('link', { name: '← All portal payments' }).click();
    await page.getByRole('heading', { name: 'Portal payments' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'pit_demo_payment_1' });
    await expect.poll(() => row.getByTestId('payment-state').textContent()).toBe('Refunded');

    await page.goto('/ops/product-payments');
    await page.getByRole('heading', { name: 'Product payments' }).waitFor();
    await page.getByText('Checks for November').waitFor();
    await look(page, 'ops-product-payments');
    await page
      .getByRole('row')
      .filter({ hasText: 'Checks for November' })
      .getByRole('link')
      .click();
    await page.getByRole('heading', { name: /^Payment PP-/ }).waitFor();
    await look(page, 'ops-product-payment');
    await context.close();
  });

  it('schedules a maintenance window and shows its warning banner', async () => {
    const { context, page } = await newPage(browser, { viewport: WIDE });
    await loginUi(page, OLIVIA);
    await page.waitForURL('**/ops/dashboard');
    await page.goto('/ops/maintenance');
    await page.getByRole('heading', { name: 'Maintenance' }).waitFor();
    await page.getByText('No maintenance windows are scheduled.').waitFor();

    await page.getByRole('button', { name: 'Add maintenance window' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Warning start').fill(local(-1));
    await dialog.getByLabel(/^Start/).fill(local(45));
    // the end before the start: the API's message beside the end
    await dialog.getByLabel(/^End/).fill(local(30));
    await dialog.getByLabel('Reason').fill('Database upgrade');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('End must be after start.').waitFor();
    await dialog.getByLabel(/^End/).fill(local(90));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'Database upgrade' }).waitFor();

    await page.reload();
    await page.getByTestId('maintenance-warning').waitFor({ timeout: 15_000 });
    await look(page, 'ops-maintenance');

    await page.getByRole('button', { name: /^Delete the window/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No maintenance windows are scheduled.').waitFor();
    await context.close();
  });
});
