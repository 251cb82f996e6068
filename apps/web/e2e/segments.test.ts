import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import { type Api, launch, lookAtWidths, reloadInScheme, setDark, settle } from './helpers';

// Segments (issue 30): an administrator adds a segment through the screens, edits its details,
// assigns a process and adds a user of the organisation (then removes them); the list counts
// them; operations see the customer's segments read-only. Every screen at 1280 and 360 px,
// light and dark, axe clean.

const shots = '/tmp/shots/segments-web';
mkdirSync(shots, { recursive: true });

let browser: Browser;
let world: World;
let admin: Api;
let ops: Api;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    ops: true,
    staff: [
      { key: 'admin', role: 'admin' },
      { key: 'viewer', role: 'viewer', firstName: 'Vera' },
    ],
    processes: [{ name: 'North checks', requirements: ['basic-details', 'rtw'] }],
  });
  admin = await world.api('admin');
  ops = await world.api('ops');
}, 300_000);
afterAll(async () => {
  for (const who of [admin, ops]) if (who) await setDark(who, false);
  await world?.dispose();
  await browser?.close();
});

/** The screen light and dark (the profile's dark mode, reloaded), each at 1280 and 360 px. */
async function look(page: Page, who: Api, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await reloadInScheme(page, who, scheme);
    await lookAtWidths(page, shots, `${name}-${scheme}`);
  }
  await setDark(who, false);
  await page.reload();
  await settle(page);
}

const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').getByText(text, { exact: true }).waitFor();

/** Picks `option` in the searchable select labelled `label`, typing `typed` first. */
async function pick(page: Page, label: string, typed: string, option: RegExp) {
  await page.getByRole('combobox', { name: label, exact: true }).fill(typed);
  await page.getByRole('option', { name: option }).click();
}

describe('segments', () => {
  it('adds a segment, edits it, assigns a process and adds then removes a user', async () => {
    const { page } = await world.signedIn(browser, 'admin');
    await page.goto('/segments');
    await page.getByRole('heading', { name: 'Segments', level: 1 }).waitFor();
    await page.getByText('No segments yet').waitFor();
    await look(page, admin, 'segments-empty');

    // Add: the name is required (the domain's rule, in the browser), then the segment.
    await page.getByRole('link', { name: 'Add segment' }).click();
    await page.waitForURL('**/segments/add');
    await settle(page);
    await look(page, admin, 'segment-add');
    await page.getByRole('button', { name: 'Add segment' }).click();
    await page.getByText('Required', { exact: true }).first().waitFor();
    await page.getByLabel(/^Name/).fill('North site');
    await page.getByLabel('Employer name').fill('Acme North Ltd');
    await page.getByLabel('Address line 1').fill('1 Quay Street');
    await page.getByLabel('Town').fill('Newcastle');
    await page.getByLabel('Postcode', { exact: true }).fill('NE1 3AF');
    await page.getByLabel('Contact name').fill('Nora North');
    await page.getByLabel('Contact email').fill('nora@north.test');
    await page.getByRole('button', { name: 'Add segment' }).click();
    await page.waitForURL(/\/segments\/\d+$/);
    await toast(page, 'Successfully added segment');
    const id = Number(/\/segments\/(\d+)$/.exec(page.url())?.[1]);
    await page.getByRole('heading', { name: 'North site', level: 1 }).waitFor();
    await page.getByText('Acme North Ltd').waitFor();
    await look(page, admin, 'segment');

    // Details: the employer name changed.
    const tabs = page.getByRole('navigation', { name: 'Segment sections' });
    await tabs.getByRole('link', { name: 'Details' }).click();
    await page.waitForURL(`**/segments/${id}/details`);
    await expect.poll(() => page.getByLabel('Employer name').inputValue()).toBe('Acme North Ltd');
    await look(page, admin, 'segment-details');
    await page.getByLabel('Employer name').fill('Acme Northern Ltd');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Successfully updated segment');

    // Processes: one assigned.
    await tabs.getByRole('link', { name: 'Processes' }).click();
    await page.waitForURL(`**/segments/${id}/processes`);
    await page.getByText('No processes in this segment').waitFor();
    await pick(page, 'Process', 'North', /North checks/);
    await page.getByRole('button', { name: 'Assign process' }).click();
    await toast(page, 'Successfully added segment process');
    await page.getByRole('button', { name: 'Unassign North checks' }).waitFor();
    await look(page, admin, 'segment-processes');

    // Users: the viewer added.
    await tabs.getByRole('link', { name: 'Users' }).click();
    await page.waitForURL(`**/segments/${id}/users`);
    await page.getByText('No users in this segment').waitFor();
    await pick(page, 'User of your organisation', 'Vera', /Vera/);
    await page.getByRole('button', { name: 'Add user' }).click();
    await toast(page, 'Successfully added segment user');
    const remove = page.getByRole('button', { name: /^Remove Vera/ });
    await remove.waitFor();
    await look(page, admin, 'segment-users');

    // The list counts them; the API agrees.
    await page.goto('/segments');
    const row = page.getByRole('row', { name: /North site/ });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toMatch(/Acme Northern Ltd.*Newcastle, NE1 3AF11/);
    await look(page, admin, 'segments');
    const one = await (await admin.api.get(`/api/segments/${id}/`)).json();
    expect(one).toMatchObject({ employer_name: 'Acme Northern Ltd', user_count: 1 });
    expect(one.process_count).toBe(1);

    // The user removed again.
    await page.goto(`/segments/${id}/users`);
    await remove.click();
    await toast(page, 'Successfully deleted segment user');
    await page.getByText('No users in this segment').waitFor();
    const after = await (await admin.api.get(`/api/segments/${id}/users/`)).json();
    expect(after.count).toBe(0);
  }, 300_000);

  it('a viewer sees the segments without the buttons that change them', async () => {
    const { page } = await world.signedIn(browser, 'viewer');
    await page.goto('/segments');
    await page.getByRole('link', { name: 'North site' }).click();
    await page.getByRole('heading', { name: 'North site', level: 1 }).waitFor();
    const tabs = page.getByRole('navigation', { name: 'Segment sections' });
    await expect
      .poll(() => tabs.getByRole('link').allTextContents())
      .toEqual(['Overview', 'Users', 'Processes']);
    await tabs.getByRole('link', { name: 'Processes' }).click();
    await page.getByRole('cell', { name: 'North checks' }).waitFor();
    expect(await page.getByRole('button', { name: /Unassign|Assign process/ }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Add segment' }).count()).toBe(0);
  }, 300_000);

  it("operations see the customer's segments and users, read-only", async () => {
    const { page } = await world.signedIn(browser, 'ops');
    const customer = world.customer.id;
    await page.goto(`/ops/customers/${customer}/segments`);
    await page.getByRole('cell', { name: 'North site' }).waitFor();
    await look(page, ops, 'ops-customer-segments');
    await page
      .getByRole('navigation', { name: 'Customer pages' })
      .getByRole('link', { name: 'Users' })
      .click();
    await page.waitForURL(`**/ops/customers/${customer}/users`);
    await page.getByText(world.username('viewer')).first().waitFor();
    await look(page, ops, 'ops-customer-users');
  }, 300_000);
});
