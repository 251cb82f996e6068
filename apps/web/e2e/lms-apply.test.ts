import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import {
  type Api,
  axe,
  launch,
  lookAtWidths,
  newPage,
  PHONE,
  reloadInScheme,
  screenshotDir,
  setDark,
  settle,
} from './helpers';

// A member of the public applies for a licence on a phone (issue 32): the demo council's public
// pages (Northgate Council publishes 'Taxi and private hire' with open portals) from the council
// list to an open portal, signing in as an applicant with `next` back to the portal, the HMRC tax
// responsibilities confirmed, Apply; the fee paid on the payment portal with the simulator's card,
// and the applicant continues from their dashboard into the case portal of the licence's checks.
//
// The applicant makes their own account on the sign-up page (`next` back to the portal).

const dir = join(screenshotDir, 'lms-apply');
let browser: Browser;
let world: World;
const applicantEmail = `priya.${Date.now()}@applicants.example.test`;
beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  browser = await launch();
  world = await newWorld({
    subjects: [{ key: 'applicant', firstName: 'Priya', lastName: 'Driver', dob: '1988-03-14' }],
  });
});
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

/** The public page at 1280 px and 360 px (axe clean at both), then back on the phone. */
async function lookPublic(page: Page, name: string) {
  await settle(page);
  await lookAtWidths(page, dir, name);
  await page.setViewportSize(PHONE);
  await settle(page);
}

/** A signed-in screen light and dark (the profile's dark mode, reloaded), each at 1280 and 360 px. */
async function lookSignedIn(page: Page, who: Api, name: string) {
  await settle(page);
  for (const scheme of ['light', 'dark'] as const) {
    await reloadInScheme(page, who, scheme);
    await lookAtWidths(page, dir, `${name}-${scheme}`);
  }
  await setDark(who, false);
  await page.reload();
  await page.setViewportSize(PHONE);
  await settle(page);
}

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('applying for a licence', () => {
  it('browses on a phone to an open portal, signs in, applies, and continues to the checks', async () => {
    const { context, page } = await newPage(browser, { viewport: PHONE });

    // The council list → the council → the group → the sub-group → the portal.
    await page.goto('/lms/council-list');
    await page.getByRole('heading', { name: 'Apply for a licence from your council' }).waitFor();
    expect(await noSidewaysScroll(page)).toBe(true);
    await lookPublic(page, 'council-list');
    await page.getByTestId('lms-councils').getByRole('link', { name: 'Northgate Council' }).click();
    await page.getByRole('heading', { level: 1, name: 'Northgate Council' }).waitFor();
    await lookPublic(page, 'council');
    await page.getByRole('link', { name: 'Taxi and private hire' }).click();
    await page.getByRole('heading', { level: 1, name: 'Taxi and private hire' }).waitFor();
    await lookPublic(page, 'licence-group');
    await page.getByRole('link', { name: 'Hackney carriage driver' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hackney carriage driver' }).waitFor();
    const card = page.getByTestId('lms-portal').first();
    expect(await card.textContent()).toContain('£275.00');
    await lookPublic(page, 'licence-sub-group');
    await card.getByRole('link', { name: 'Apply for a hackney carriage driver licence' }).click();
    await page.waitForURL(/\/application-portals\/\d+$/);
    const portalPath = new URL(page.url()).pathname;
    const portalId = portalPath.split('/').pop();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByTestId('portal-facts').textContent()).toContain('£275.00');
    expect(await page.getByTestId('portal-needs').textContent()).toContain('Checks');
    expect(await noSidewaysScroll(page)).toBe(true);
    await lookPublic(page, 'application-portal');

    // Apply: a new applicant creates their account, and is back at the portal's /s/ form.
    expect(await page.getByRole('link', { name: 'Sign in to apply' }).getAttribute('href')).toBe(
      `/login?next=${encodeURIComponent(`/s/application-portals/${portalId}`)}&subject=y`,
    );
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL('**/signup?**');
    await page.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor();
    await page.getByLabel('First name').fill('Priya');
    await page.getByLabel('Last name').fill('Driver');
    await page.getByLabel('Email address').fill(applicantEmail);
    await page.getByTestId('date-year').selectOption('1988');
    await page.getByTestId('date-month').selectOption('3');
    await page.getByTestId('date-day').selectOption('14');
    await page.locator('input[name="password"]').fill('hackney-carriage-2026');
    await page.locator('input[name="confirm"]').fill('hackney-carriage-2026');
    // without the terms: the error summary says so
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect
      .poll(() => page.getByText('You must agree to the terms to create an account.').count())
      .toBeGreaterThan(0);
    await page.getByLabel(/I agree to the terms/).check();
    expect(await noSidewaysScroll(page)).toBe(true);
    await lookPublic(page, 'applicant-signup');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`**/s/application-portals/${portalId}`, { timeout: 20_000 });
    await page.getByRole('button', { name: 'Apply and pay £275.00' }).waitFor();
    // A signed-in applicant who opens the public address is sent to the /s/ one (point 2).
    await page.goto(portalPath);
    await page.waitForURL(`**/s/application-portals/${portalId}`);
    const check = await (await page.request.get('/api/accounts/check-session/')).json();
    const applicant: Api = { api: page.request, csrf: () => String(check.csrf_token) };
    await lookSignedIn(page, applicant, 's-application-portal');

    // Apply without confirming: the error summary, linked to the box to tick.
    const apply = page.getByRole('button', { name: 'Apply and pay £275.00' });
    await apply.click();
    const summary = page.getByTestId('error-summary');
    await summary.waitFor();
    expect(await summary.textContent()).toContain(
      'Confirm that you are aware of your tax responsibilities.',
    );
    expect(await axe(page)).toEqual([]);
    await page.getByLabel('I understand my tax responsibilities').check();
    await apply.click();

    // The fee on the payment portal, with the payments simulator's card.
    await page.waitForURL(/\/payment-portal\/[\w-]+\?/);
    // the page names the licence application, not a check
    await page.getByRole('heading', { level: 1, name: 'Pay your licence fee' }).waitFor();
    await expect
      .poll(() => page.getByTestId('amount').textContent(), { timeout: 30_000 })
      .toBe('£275.00');
    await page.locator('#card-name').fill('Priya Driver');
    await page.locator('#card-number').fill('4242 4242 4242 4242');
    await page.locator('#card-expiry').fill('12/34');
    await page.locator('#card-cvc').fill('123');
    await page.getByRole('button', { name: 'Pay £275.00' }).click();
    await expect
      .poll(() => page.getByText('Payment received').count(), { timeout: 30_000 })
      .toBe(1);
    expect(await noSidewaysScroll(page)).toBe(true);
    await page.screenshot({ path: join(dir, 'payment-portal-paid-360.png'), fullPage: true });
    expect(await page.getByText('your licence application will now continue').count()).toBe(1);
    // Continue: on to the dashboard, where the application shows
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/s/dashboard');

    // The portal now shows the open application instead of the form.
    await page.goto(`/s/application-portals/${portalId}`);
    const mine = page.getByTestId('my-application');
    await mine.waitFor();
    expect(await page.getByTestId('apply-form').count()).toBe(0);

    // The dashboard shows the application in progress, and its button opens the case portal.
    const item = page.getByTestId('licence-application').filter({ hasText: 'Northgate Council' });
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
    expect(await item.textContent()).toContain('Hackney carriage driver licence');
    expect(await noSidewaysScroll(page)).toBe(true);
    await lookSignedIn(page, applicant, 's-dashboard');
    // The application's own page (its reference on the dashboard).
    await item.getByRole('link', { name: /^APP-\d+$/ }).click();
    await page.getByTestId('application-state-text').waitFor();
    await lookSignedIn(page, applicant, 's-lms-application');
    await page.getByRole('link', { name: 'Continue your application' }).waitFor();
    await page.goto('/s/dashboard');
    await item.getByRole('link', { name: 'Continue your application' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/s/case-portal/'));
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.screenshot({ path: join(dir, 'case-portal-360.png'), fullPage: true });

    // Signed in, the council pages are the /s/ ones (point 2): the public address sends the
    // applicant there, each screen at both widths, light and dark.
    await page.goto('/lms/council-list');
    await page.waitForURL((url) => url.pathname === '/s/lms/council-list');
    await page
      .getByRole('heading', { level: 1, name: 'Apply for a licence from your council' })
      .waitFor();
    await lookSignedIn(page, applicant, 's-lms-council-list');
    await page.getByTestId('lms-councils').getByRole('link', { name: 'Northgate Council' }).click();
    await page.getByRole('heading', { level: 1, name: 'Northgate Council' }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/s\/lms\/\d+$/);
    await lookSignedIn(page, applicant, 's-lms-council');
    await page.getByRole('link', { name: 'Taxi and private hire' }).click();
    await page.getByRole('heading', { level: 1, name: 'Taxi and private hire' }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/s\/lms\/\d+\/\d+$/);
    await lookSignedIn(page, applicant, 's-lms-licence-group');
    await page.getByRole('link', { name: 'Hackney carriage driver' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hackney carriage driver' }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/s\/lms\/\d+\/\d+\/\d+$/);
    await page.getByTestId('lms-portal').first().waitFor();
    await lookSignedIn(page, applicant, 's-lms-licence-sub-group');

    await context.close();
  });
});
