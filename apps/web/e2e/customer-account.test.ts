import { mkdirSync } from 'node:fs';
import { TOTP_REQUIRED_NOTICE } from '@kestrel/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveConsents, newWorld, WORLD_PASSWORD, type World } from './fixtures';
import {
  type Api,
  apiAs,
  launch,
  loginUi,
  lookAtWidths,
  newPage,
  reloadInScheme,
  setDark,
  settle,
  signedIn,
} from './helpers';

// The organisation's account (issue 30): the administrator edits the organisation and turns on
// required two-factor sign-in; a colleague without TOTP is sent to set it up at the next sign-in;
// the consents list shows a consent a subject gave (the demo's); a consent the world's subject
// gives in the portal reaches the customer's consents list and the subject's Consents tab.
// Screens at 1280 and 360 px, light and dark, axe clean.

const shots = '/tmp/shots/account';
mkdirSync(shots, { recursive: true });

let browser: Browser;
let world: World;
let admin: Api;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    staff: [
      { key: 'admin', role: 'admin' },
      { key: 'worker', role: 'viewer', firstName: 'Wren' },
    ],
    processes: [{ name: 'Drivers', requirements: ['driver-data'] }],
    subjects: [{ key: 'sam', firstName: 'Sam', lastName: 'Consenter' }],
  });
  admin = await world.api('admin');
}, 300_000);
afterAll(async () => {
  if (admin) await setDark(admin, false);
  await world?.dispose();
  await browser?.close();
});

async function look(page: Page, who: Api | null, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    if (who) {
      await reloadInScheme(page, who, scheme);
    } else if (scheme === 'dark') continue;
    await lookAtWidths(page, shots, `${name}-${scheme}`);
  }
  if (who) {
    await setDark(who, false);
    await page.reload();
    await settle(page);
  }
}

const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').getByText(text, { exact: true }).waitFor();

describe('organisation account', () => {
  // first: the next test requires two-factor of the organisation, which the administrator lacks
  it("a consent given in the portal shows on the consents list and the subject's tab", async () => {
    const caseId = await world.openCase('Drivers', 'sam');
    await giveConsents(await world.api('sam'), caseId);
    const { page } = await world.signedIn(browser, 'admin');
    await page.goto('/subjects/consents');
    await page.getByRole('heading', { name: 'Consents', level: 1 }).waitFor();
    const row = page.getByRole('row', { name: /Sam Consenter/ });
    await row.getByText('Given', { exact: true }).waitFor();
    await settle(page);
    await look(page, admin, 'subject-consents-given');

    // the subject's Consents tab (not in the address: chosen again after each reload)
    await page.goto(`/subjects/${world.subjects.sam?.id}`);
    for (const scheme of ['light', 'dark'] as const) {
      await reloadInScheme(page, admin, scheme);
      await page.getByRole('tab', { name: 'Consents', exact: true }).click();
      await page
        .getByRole('tabpanel', { name: 'Consents' })
        .getByRole('row', { name: new RegExp(`case #${caseId}\\)`) })
        .getByText('Given', { exact: true })
        .waitFor();
      await settle(page);
      await lookAtWidths(page, shots, `subject-tab-consents-${scheme}`);
    }
    await setDark(admin, false);
  });

  it('edits the organisation and requires two-factor: a user without it sets it up', async () => {
    const { page } = await world.signedIn(browser, 'admin');
    await page.goto('/customer-account');
    await page.getByRole('heading', { name: 'Organisation account', level: 1 }).waitFor();
    await settle(page);
    await page.getByRole('heading', { name: 'Pricebook' }).waitFor();
    await look(page, admin, 'customer-account');

    await page.getByRole('button', { name: 'Edit details' }).click();
    await page.getByLabel('Address line 1').fill('7 Mill Lane');
    await page.getByLabel('Town').fill('York');
    await page.getByLabel('Postcode', { exact: true }).fill('YO1 7HH');
    await page.getByLabel('Contact name').fill('Olive Office');
    await look(page, null, 'customer-account-edit');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Successfully updated organisation');
    await page.getByText('7 Mill Lane').waitFor();

    const account = await (await admin.api.get('/api/customer-account/')).json();
    expect(account).toMatchObject({ line_one: '7 Mill Lane', town: 'York', require_totp: false });
    // the switch shows the saved policy: it turns once the server has it
    const policy = page.getByRole('switch', { name: /Require two-factor authentication/ });
    await policy.click();
    await toast(page, 'Successfully updated two-factor policy');
    // the administrator has no TOTP either: from now on the server answers them only their own
    // account, until they set it up
    const refused = await admin.api.get('/api/customer-account/');
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toEqual({ detail: TOTP_REQUIRED_NOTICE });

    // The colleague signs in: sent to set up two-factor, and kept there.
    const { page: worker } = await newPage(browser, { host: world.host });
    await loginUi(worker, world.username('worker'), WORLD_PASSWORD);
    await worker.waitForURL('**/profile/totp');
    await worker.getByText('Your organisation requires two-factor authentication').waitFor();
    await worker.goto('/cases');
    await worker.waitForURL('**/profile/totp');
    await worker.getByTestId('totp-qr').waitFor();
    // light and dark: the colleague's own profile setting (their own account is still theirs)
    const colleague = await apiAs(world.username('worker'), world.host, WORLD_PASSWORD);
    await look(worker, colleague, 'totp-required');
    await worker.getByTestId('totp-qr').waitFor();
  });

  it("lists the subjects' consents, a given one among them", async () => {
    const { page } = await signedIn(browser, 'admin@acme.test');
    await page.goto('/subjects/consents');
    await page.getByRole('heading', { name: 'Consents', level: 1 }).waitFor();
    await settle(page);
    await expect.poll(() => page.getByText('Given', { exact: true }).count()).toBeGreaterThan(0);
    await lookAtWidths(page, shots, 'subject-consents-light');
  });
});
