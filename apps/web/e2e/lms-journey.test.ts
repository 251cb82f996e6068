import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, WORLD_PASSWORD, type World } from './fixtures';
import {
  type Api,
  axe,
  launch,
  lookAtWidths,
  newPage,
  PHONE,
  reloadInScheme,
  screenshotDir,
  send,
  setDark,
  settle,
} from './helpers';

// One licence from application to renewal (issue 32), in one continuous journey. A council of
// its own (a name unique per attempt) publishes a hackney carriage driver licence with a new and
// a renewal portal. A member of the public, on a phone and signed out, browses the council list
// to the portal, signs in from its 'Sign in to apply' (back at the /s/ portal), confirms their
// tax responsibilities (a first licence), pays the fee on the payment portal and continues from
// their dashboard into the case portal of the licence's checks. The checks are completed by the
// test-only fixture (apps/server lms.e2e.ts); the licensing officer grants the licence from the
// portal's applications; the licence is found by the holder's name in the licences search. The
// holder's granted application offers Renew; from their dashboard's Renew they renew on the
// renewal portal: HMRC's rule (domain taxCheckReason) asks a code of an existing holder, on the
// new portal as well, and an expired code stops the renewal with HMRC's message; a valid one
// opens the renewal, its fee due.
//
// Signed-out pages are always light (PublicLayout: dark mode belongs to a profile), so they are
// looked at light at 1280 and 360 px; the signed-in /s/ pages light and dark at both widths.

const dir = join(screenshotDir, 'lms-journey');
const suffix = Date.now().toString(36);
const councilName = `Fernhill Council ${suffix}`;
let browser: Browser;
let world: World;
let admin: Api;
let holder: Api;
const ids = { definition: 0, portal: 0, renewal: 0 };

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  browser = await launch();
  world = await newWorld({
    customerName: councilName,
    subjects: [{ key: 'driver', firstName: 'Morgan', lastName: 'Reyes', dob: '1986-07-21' }],
  });
  admin = await world.api('admin');
  holder = await world.api('driver');
  const group = await send(admin, 'post', '/api/lms/licence-groups/', {
    name: 'Taxi and private hire',
    is_published: true,
  });
  const subGroup = await send(admin, 'post', '/api/lms/licence-sub-groups/', {
    group: group.id,
    name: 'Hackney carriage driver',
    code: 'HCD',
    is_published: true,
  });
  const definition = await send(admin, 'post', '/api/lms/definitions/', {
    sub_group: subGroup.id,
    name: 'Hackney carriage driver licence',
    duration_years: 1,
    fee_pence: 15000,
    requirements: [{ activity_type: 'basic-details' }],
    is_published: true,
  });
  ids.definition = definition.id;
  const portal = (more: object) =>
    send(admin, 'post', `/api/lms/definitions/${definition.id}/application_portals/`, {
      is_open: true,
      ...more,
    });
  ids.portal = (
    await portal({ title: 'Apply for a hackney carriage driver licence', fee_pence: 15000 })
  ).id;
  ids.renewal = (
    await portal({
      title: 'Renew your hackney carriage driver licence',
      kind: 'renewal',
      fee_pence: 9000,
    })
  ).id;
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

const scheme = (page: Page) =>
  page.evaluate(() => document.documentElement.dataset.mantineColorScheme);
const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').getByText(text, { exact: true }).first().waitFor();

/** A signed-out page: light (always), axe clean, at 1280 and 360 px; then on the phone again. */
async function lookPublic(page: Page, name: string) {
  await settle(page);
  expect(await scheme(page)).toBe('light');
  expect(await noSidewaysScroll(page)).toBe(true);
  await lookAtWidths(page, dir, `${name}-light`);
  await page.setViewportSize(PHONE);
  await settle(page);
}

/** A signed-in page light and dark (the holder's profile, reloaded), each at 1280 and 360 px. */
async function lookSignedIn(page: Page, name: string) {
  await settle(page);
  for (const s of ['light', 'dark'] as const) {
    await reloadInScheme(page, holder, s);
    await lookAtWidths(page, dir, `${name}-${s}`);
  }
  await setDark(holder, false);
  await page.reload();
  await page.setViewportSize(PHONE);
  await settle(page);
  expect(await noSidewaysScroll(page)).toBe(true);
}

describe('a licence from application to renewal', () => {
  it('the public applies on a phone, the council grants, the licence is found, and the holder renews with an HMRC code', async () => {
    const { context, page } = await newPage(browser, { viewport: PHONE });

    // Signed out: the council list → the council → the group → the sub-group → the portal.
    await page.goto('/lms/council-list');
    await page.getByRole('heading', { name: 'Apply for a licence from your council' }).waitFor();
    await page.getByTestId('lms-councils').getByRole('link', { name: councilName }).click();
    await page.getByRole('heading', { level: 1, name: councilName }).waitFor();
    await page.getByRole('link', { name: 'Taxi and private hire' }).click();
    await page.getByRole('heading', { level: 1, name: 'Taxi and private hire' }).waitFor();
    await page.getByRole('link', { name: 'Hackney carriage driver' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hackney carriage driver' }).waitFor();
    const cards = page.getByTestId('lms-portal');
    await expect.poll(() => cards.count()).toBe(2);
    await cards
      .getByRole('link', { name: 'Apply for a hackney carriage driver licence', exact: true })
      .click();
    await page.waitForURL(`**/application-portals/${ids.portal}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByTestId('portal-facts').textContent()).toContain('£150.00');
    await lookPublic(page, 'application-start');

    // Sign in to apply: the login form, then back at the portal's /s/ form.
    await page.getByRole('link', { name: 'Sign in to apply' }).click();
    await page.waitForURL('**/login?**');
    await page.locator('input[name="username"]').fill(world.username('driver'));
    await page.locator('input[name="password"]').fill(WORLD_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`**/s/application-portals/${ids.portal}`, { timeout: 20_000 });
    const apply = page.getByRole('button', { name: 'Apply and pay £150.00' });
    await apply.waitFor();
    // a first licence: the confirmation, no code
    expect(await page.getByLabel('Tax check code').count()).toBe(0);
    await lookSignedIn(page, 's-application-start');
    await apply.click();
    const summary = page.getByTestId('error-summary');
    await summary.waitFor();
    expect(await summary.textContent()).toContain(
      'Confirm that you are aware of your tax responsibilities.',
    );
    expect(await axe(page)).toEqual([]);
    await page.getByLabel('I understand my tax responsibilities').check();
    await apply.click();

    // The fee, with the payments simulator's card.
    await page.waitForURL(/\/payment-portal\/[\w-]+\?/);
    await page.getByRole('heading', { level: 1, name: 'Pay your licence fee' }).waitFor();
    await expect
      .poll(() => page.getByTestId('amount').textContent(), { timeout: 30_000 })
      .toBe('£150.00');
    await page.locator('#card-name').fill('Morgan Reyes');
    await page.locator('#card-number').fill('4242 4242 4242 4242');
    await page.locator('#card-expiry').fill('12/34');
    await page.locator('#card-cvc').fill('123');
    await page.getByRole('button', { name: 'Pay £150.00' }).click();
    await expect
      .poll(() => page.getByText('Payment received').count(), { timeout: 30_000 })
      .toBe(1);
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/s/dashboard');

    // The dashboard: the application in progress once the payment is in; on to its sections.
    const item = page.getByTestId('licence-application').filter({ hasText: councilName });
    await expect
      .poll(
        async () => {
          await page.goto('/s/dashboard');
          await item.waitFor();
          return item.getByTestId('application-state').textContent();
        },
        { timeout: 60_000, interval: 1000 },
      )
      .toBe('In progress');
    await item.getByRole('link', { name: 'Continue your application' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/s/case-portal/'));
    await page.getByRole('heading', { level: 1 }).waitFor();
    await lookSignedIn(page, 's-application-sections');

    // The checks done (the fixture); the licensing officer grants from the portal's applications.
    const mine = await (await holder.api.get('/api/lms/s/applications/')).json();
    const applicationId = Number(mine.results[0].id);
    const done = await send(admin, 'post', '/api/test-fixtures/lms-application-checks/', {
      application_id: applicationId,
    });
    expect(done.completed).toBe(1);
    // The council asks for more; the holder answers on the application's page (back in progress).
    await send(admin, 'post', `/api/lms/applications/${applicationId}/request-info/`, {
      message: 'Send a photo of your DVLA licence, both sides, please.',
    });
    await page.goto(`/s/lms/applications/${applicationId}`);
    const asked = page.getByTestId('info-request');
    await asked.getByText('Send a photo of your DVLA licence, both sides, please.').waitFor();
    await lookSignedIn(page, 's-application-more-info');
    await asked.getByLabel('Your reply').fill('Uploaded to my documents this morning.');
    await asked.getByRole('button', { name: 'Send reply' }).click();
    await expect.poll(() => asked.count(), { timeout: 20_000 }).toBe(0);
    await expect
      .poll(async () => (await admin.api.get(`/api/lms/applications/${applicationId}/`)).json())
      .toMatchObject({ state: 'in_progress' });

    const staff = await world.signedIn(browser, 'admin');
    const office = staff.page;
    const portalPath = `/definitions/${ids.definition}/application_portals/${ids.portal}`;
    await office.goto(`${portalPath}?application=${applicationId}`);
    await settle(office);
    const panel = office.getByTestId('application-panel');
    await panel.getByRole('heading', { name: 'Morgan Reyes' }).waitFor();
    await panel.getByText('1 of 1 checks').waitFor();
    await panel.getByRole('button', { name: 'Grant', exact: true }).click();
    const grant = office.getByRole('dialog', { name: 'Grant the licence?' });
    await grant.getByRole('button', { name: 'Grant', exact: true }).click();
    await toast(office, 'Licence granted');
    const granted = await (await admin.api.get(`/api/lms/applications/${applicationId}/`)).json();
    expect(granted.state).toBe('granted');
    const number = String(granted.licence_number);
    expect(number).toMatch(/^HCD\/\d{4}\/00001$/);

    // The licences search finds it by the holder's name.
    await office.goto('/licences');
    await settle(office);
    await office.getByRole('textbox', { name: 'Search', exact: true }).fill('Reyes');
    await office.waitForURL(/[?&]q=Reyes/);
    const open = office.getByRole('button', { name: `Open licence ${number}` });
    await open.waitFor();
    await lookAtWidths(office, dir, 'licences-search-light');
    await open.click();
    const drawer = office.getByRole('dialog', { name: `Licence ${number}` });
    expect(await drawer.getByTestId('licence-status').textContent()).toBe('Active');
    await staff.context.close();

    // The holder's application shows the licence, and Renew (the renewal portal is open and the
    // licence renewable); applying again on the new portal is a renewal in substance: HMRC's
    // code, not the confirmation.
    await page.goto(`/s/lms/applications/${applicationId}`);
    await page.getByText(number).first().waitFor();
    const renewBox = page.getByTestId('renew-licence-box');
    await renewBox.getByRole('link', { name: 'Renew', exact: true }).waitFor();
    expect(await renewBox.textContent()).toContain(`Your licence ${number} can be renewed`);
    await lookSignedIn(page, 's-application-granted');
    await page.goto(`/s/application-portals/${ids.portal}`);
    await page.getByLabel('Tax check code').waitFor();
    expect(await page.getByLabel('I understand my tax responsibilities').count()).toBe(0);

    // Up one level to the sub-group's portals, to the renewal portal: the code is needed; an
    // expired one stops the renewal, a valid one opens it with its fee.
    await page
      .getByTestId('breadcrumbs')
      .getByRole('link', { name: 'Hackney carriage driver', exact: true })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Hackney carriage driver' }).waitFor();
    await page
      .getByRole('link', { name: 'Renew your hackney carriage driver licence', exact: true })
      .waitFor();
    // the holder's own way there: Renew on their granted application (the dashboard's card too)
    await page.goto('/s/dashboard');
    const card = page.getByTestId('licence-application').filter({ hasText: number });
    await card.getByRole('link', { name: 'Renew', exact: true }).waitFor();
    await lookSignedIn(page, 's-dashboard-renew');
    await card.getByRole('link', { name: 'Renew', exact: true }).click();
    await page.waitForURL(`**/s/application-portals/${ids.renewal}`);
    const renew = page.getByRole('button', { name: 'Apply and pay £90.00' });
    await renew.waitFor();
    await lookSignedIn(page, 's-renewal-portal');
    const code = page.getByLabel('Tax check code');
    await renew.click();
    await summary.waitFor();
    expect(await summary.textContent()).toContain('Enter your tax check code');
    await code.fill('E00000001');
    await renew.click();
    await expect
      .poll(() => summary.textContent())
      .toContain('This tax check code has expired (codes are valid for 120 days).');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(dir, 's-renewal-expired-code-360.png'), fullPage: true });
    await code.fill('HMRC12345');
    await renew.click();
    await page.waitForURL(/\/payment-portal\/[\w-]+\?/);
    await page.getByRole('heading', { level: 1, name: 'Pay your licence fee' }).waitFor();
    const renewals = await (
      await admin.api.get(`/api/lms/applications/?portal=${ids.renewal}`)
    ).json();
    expect(renewals.count).toBe(1);
    const renewal = await (
      await admin.api.get(`/api/lms/applications/${renewals.results[0].id}/`)
    ).json();
    expect(renewal).toMatchObject({
      kind: 'renewal',
      renews_licence: granted.licence_id,
      state: 'awaiting_payment',
      tax_check: { needed: 'code', code: 'HMRC12345', status: 'confirmed' },
    });
    await context.close();
  });
});
