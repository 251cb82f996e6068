import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import { type Api, launch, lookLightAndDark, setDark } from './helpers';

// Pricebooks (issue 29): an ops user sets a pricebook for a customer (a price per kind and level,
// in pounds); the customer's administrator then sees what a case will cost on the case-add
// screen. Screens at 1280 px, light and dark, axe clean.

const WIDE = { width: 1280, height: 900 };
const shots = '/tmp/shots/pricebooks';
mkdirSync(shots, { recursive: true });

let browser: Browser;
let world: World;
let ops: Api;
let admin: Api;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    ops: true,
    processes: [
      {
        name: 'Basic with paper',
        requirements: [
          {
            code: 'dbs-basic',
            config: {
              purpose: 'employment',
              paper_cert: true,
              paper_cert_name: 'Ada Smith',
              paper_cert_line_one: '1 High Street',
              paper_cert_town: 'Leeds',
              paper_cert_postcode: 'LS1 1AA',
            },
          },
          'rtw',
        ],
      },
    ],
  });
  ops = await world.api('ops');
  admin = await world.api('admin');
}, 300_000);
afterAll(async () => {
  for (const who of [ops, admin]) if (who) await setDark(who, false);
  await world?.dispose();
  await browser?.close();
});

/** Light and dark at 1280 px, axe clean in both (the profile's dark mode, reloaded). */
const look = (page: Page, who: Api, name: string) => lookLightAndDark(page, who, shots, name);

describe('pricebooks', () => {
  it('ops set a pricebook; the customer sees the cost on case-add', async () => {
    const customer = world.customer.id;
    const { page } = await world.signedIn(browser, 'ops', { viewport: WIDE });
    await page.goto(`/ops/customers/${customer}/pricebooks`);
    await page.getByRole('heading', { name: 'Pricebooks' }).waitFor();
    await page.getByText('No pricebooks yet.').waitFor();
    await look(page, ops, 'ops-pricebooks-empty');

    await page.getByRole('link', { name: 'Add pricebook' }).click();
    await page.getByRole('heading', { name: 'Add pricebook' }).waitFor();
    await look(page, ops, 'ops-pricebook-add');
    await page.getByLabel('Name').fill('Standard prices');
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel('Valid from').fill(today);
    await page.getByLabel('Price of Basic DBS check, online certificate').fill('20');
    await page.getByLabel('Price of Basic DBS check, paper certificate by post').fill('26.50');
    await page.getByLabel('Price of Right to work').fill('4.5');
    await page.getByRole('button', { name: 'Save' }).click();

    await page.getByRole('heading', { name: 'Pricebooks' }).waitFor();
    const row = page.getByRole('row', { name: /Standard prices/ });
    await row.getByText('Active').waitFor();
    await look(page, ops, 'ops-pricebooks');

    // the stored prices are in pence
    const list = await ops.api.get(`/api/ops/customers/${customer}/pricebooks/`);
    const [pb] = (await list.json()).results as {
      id: number;
      prices: { activity_type: string; level: string | null; amount_pence: number }[];
    }[];
    expect(pb?.prices).toContainEqual({
      activity_type: 'dbs-basic',
      level: 'paper-certificate',
      amount_pence: 2650,
      amount_display: '£26.50',
    });

    await row.getByRole('link', { name: 'Standard prices' }).click();
    await page.getByRole('heading', { name: 'Edit pricebook' }).waitFor();
    await expect.poll(() => page.getByLabel('Price of Right to work').inputValue()).toBe('4.50');
    await look(page, ops, 'ops-pricebook-edit');

    // the customer's administrator: the case's cost before it is created
    const staff = await world.signedIn(browser, 'admin', { viewport: WIDE });
    const processId = world.processes['Basic with paper'];
    await staff.page.goto(`/cases/add?process=${processId}`);
    await staff.page.getByRole('heading', { name: 'Add case' }).waitFor();
    await staff.page.getByText('Cost: £31.00').waitFor();
    await staff.page.getByText('£26.50').waitFor();
    await staff.page.getByText('£4.50').waitFor();
    await look(staff.page, admin, 'case-add-cost');
  });

  it("ops mark the pricebook 'Invoiced': the list shows it, the edit form keeps it", async () => {
    const customer = world.customer.id;
    const { page } = await world.signedIn(browser, 'ops', { viewport: WIDE });
    await page.goto(`/ops/customers/${customer}/pricebooks`);
    const row = page.getByRole('row', { name: /Standard prices/ });
    await row.getByText('Card per case').waitFor();
    await row.getByRole('link', { name: 'Standard prices' }).click();
    await page.getByRole('heading', { name: 'Edit pricebook' }).waitFor();
    await page
      .getByText("Cases are not charged to the customer's card; payments are invoiced")
      .waitFor();
    const invoiced = page.getByRole('checkbox', { name: 'Invoiced' });
    expect(await invoiced.isChecked()).toBe(false);
    await invoiced.check();
    await page.getByRole('button', { name: 'Save' }).click();

    await page.getByRole('heading', { name: 'Pricebooks' }).waitFor();
    await row.getByText('Invoiced', { exact: true }).waitFor();
    await look(page, ops, 'ops-pricebooks-invoiced');

    const list = await ops.api.get(`/api/ops/customers/${customer}/pricebooks/`);
    const books = (await list.json()).results as { name: string; invoiced: boolean }[];
    expect(books.find((b) => b.name === 'Standard prices')?.invoiced).toBe(true);

    await row.getByRole('link', { name: 'Standard prices' }).click();
    await page.getByRole('heading', { name: 'Edit pricebook' }).waitFor();
    await expect.poll(() => invoiced.isChecked()).toBe(true);
  });
});
