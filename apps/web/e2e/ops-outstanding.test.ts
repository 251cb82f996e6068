import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiAs,
  axeClean,
  launch,
  loginUi,
  newPage,
  PHONE,
  place,
  signedIn,
  steady,
} from './helpers';

// Operations' queue: checks of every customer waiting for ops, the one opened, and its case
// worked inside the customer's workspace (an ops session for that customer).

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

const shots = join(tmpdir(), 'kestrel-ops-outstanding');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

interface Waiting {
  id: number;
  customer: number;
  customer_name: string;
  activity_type_name: string;
  case: { id: number; subject: { first_name: string; last_name: string } };
}

describe('ops outstanding activities', () => {
  it('lists every customer’s checks waiting for ops, filters by customer, opens one and its case', async () => {
    const ops = await apiAs('ops@kestrel.test');
    const all = await (
      await ops.api.get('/api/ops/outstanding-activities/', { params: { page_size: 100 } })
    ).json();
    await ops.api.dispose();
    const rows: Waiting[] = all.results;
    const acme = rows.find((a) => a.customer_name === 'Acme Care Ltd');
    expect(acme, JSON.stringify(rows.map((a) => a.customer_name))).toBeTruthy();
    if (!acme) return;
    expect(new Set(rows.map((a) => a.customer_name)).size).toBeGreaterThan(1);

    const { context, page } = await newPage(browser);
    await loginUi(page, 'ops@kestrel.test', undefined, '/login?next=%2Fops%2Fdashboard');
    await page.waitForURL('**/ops/dashboard');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Outstanding activities' })
      .click();
    await page.waitForURL('**/ops/outstanding-activities');
    await page.getByRole('heading', { name: 'Outstanding activities', level: 1 }).waitFor();
    const table = page.getByRole('table');
    await table.getByRole('link').first().waitFor();
    expect(await table.locator('thead').textContent()).toContain('Customer');
    expect(await axeClean(page)).toEqual([]);
    await shot(page, 'list-desktop');

    // One customer's checks only.
    await page
      .getByRole('combobox', { name: 'Customer', exact: true })
      .or(page.getByRole('textbox', { name: 'Customer', exact: true }))
      .first()
      .click();
    await page.getByRole('option', { name: 'Acme Care Ltd' }).click();
    await expect
      .poll(async () => {
        const texts = await table.locator('tbody tr').allTextContents();
        return texts.length > 0 && texts.every((t) => t.includes('Acme Care Ltd'));
      })
      .toBe(true);

    const row = table
      .getByRole('row')
      .filter({ hasText: `#${acme.case.id}` })
      .first();
    await row.getByRole('link').first().click();
    // the link keeps the list's filters in its query
    await page.waitForURL(new RegExp(`/ops/outstanding-activities/${acme.id}(\\?|$)`));
    await page.getByRole('heading', { name: acme.activity_type_name, level: 1 }).waitFor();
    const main = page.getByRole('main');
    expect(await main.textContent()).toContain(
      `${acme.case.subject.first_name} ${acme.case.subject.last_name}`,
    );
    expect(await axeClean(page)).toEqual([]);
    await shot(page, 'detail-desktop');
    await page.setViewportSize(PHONE);
    await steady(page);
    expect(await axeClean(page)).toEqual([]);
    await shot(page, 'detail-phone');

    // The case is worked in the customer's workspace.
    await page.getByRole('button', { name: 'Open the case as Acme Care Ltd' }).click();
    // the ops session, then the bootstrap, then the case (slow on a loaded machine); a refused
    // session is told apart from a slow one
    await page.waitForURL(`**/cases/${acme.case.id}`, { timeout: 60_000 }).catch(async (err) => {
      if (await page.getByText('Error starting customer session').isVisible()) {
        throw new Error('the ops session was refused');
      }
      throw err;
    });
    await page.getByTestId('ops-strip').waitFor();
    expect(await page.getByTestId('ops-strip').textContent()).toContain('Acme Care Ltd');
    await context.close();
  });

  it('says so for an activity that no longer waits for ops', async () => {
    const { context, page } = await newPage(browser);
    await loginUi(
      page,
      'ops@kestrel.test',
      undefined,
      '/login?next=%2Fops%2Foutstanding-activities%2F999999',
    );
    await page.getByText('This activity is no longer waiting for operations.').waitFor();
    expect(place(page)).toBe('/ops/outstanding-activities/999999');
    expect(await axeClean(page)).toEqual([]);
    await context.close();
  });

  it('is not open to customer users', async () => {
    const { context, page } = await signedIn(browser, 'admin@acme.test');
    await page.goto('/ops/outstanding-activities');
    await page.waitForURL('**/dashboard');
    await context.close();
  });
});
