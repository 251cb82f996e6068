import { formatPence } from '@kestrel/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import {
  type Api,
  axeClean,
  launch,
  lookAtWidths,
  newPage,
  PHONE,
  reloadInScheme,
  send,
  settle,
  writeScreenshots,
} from './helpers';

// Registration portals (issue 31): an administrator publishes a portal where the subject pays;
// a member of the public registers on a phone through its link, confirms the emailed link with a
// password, pays with the simulator's card and lands in the case portal; the customer sees the
// registration and its case. A second registration is abandoned and found expired 48 hours on.
// Every new screen is looked at 1280 px and 360 px (light and dark for the signed-in ones: the
// public pages follow no account's choice).

const shots = '/tmp/shots/regportals';
const PRICE_ONLINE = 4250;

let browser: Browser;
let world: World;
let admin: Api;
let ops: Api;
let segmentId = 0;
let processId = 0;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    entitlements: ['regportals'],
    processes: [
      {
        name: 'Taxi drivers',
        requirements: [{ code: 'dbs-basic', config: { purpose: 'employment' } }],
      },
    ],
    ops: true,
  });
  admin = await world.api('admin');
  ops = await world.api('ops');
  processId = world.processes['Taxi drivers'] ?? 0;
  const segment = await send(admin, 'post', '/api/segments/', { name: 'North depot' });
  segmentId = (segment as { id: number }).id;
  // The customer's pricebook prices the basic check: the subject pays that.
  await send(ops, 'post', `/api/ops/customers/${world.customer.id}/pricebooks/`, {
    name: 'Standard prices',
    valid_from: '2020-01-01',
    prices: [
      { activity_type: 'dbs-basic', level: 'online', amount_pence: PRICE_ONLINE },
      { activity_type: 'dbs-basic', level: 'paper-certificate', amount_pence: PRICE_ONLINE + 600 },
    ],
  });
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

/**
 * The confirmation link last emailed to `email`, as a path on this site ('/self-initiate/..
 * ?confirm=..'): the server's browser-test fixture reads it from the local outbox.
 */
async function confirmPath(email: string): Promise<string> {
  let path = '';
  await expect
    .poll(
      async () => {
        const res = await admin.api.get('/api/test-fixtures/registration-confirmation/', {
          params: { email },
        });
        if (res.ok()) path = (await res.json()).path;
        return path;
      },
      { timeout: 30_000 },
    )
    .toMatch(/^\/self-initiate\/\d+\/[\w-]+\?confirm=/);
  return path;
}

/** The registration of `email` as the customer's staff see it (the API's search). */
async function registrationOf(
  email: string,
): Promise<{ id: number; state: string; subject_id: number | null }> {
  const body = await (
    await admin.api.get('/api/portal-registrations/', { params: { q: email } })
  ).json();
  const found = body.results?.[0];
  expect(found, `registration of ${email}`).toBeTruthy();
  return found;
}

/** The API as the page's signed-in person (its cookies), for their dark mode. */
async function pageApi(page: Page): Promise<Api> {
  const check = await (await page.request.get('/api/accounts/check-session/')).json();
  const token: string = check.csrf_token;
  return { api: page.request, csrf: () => token };
}

/**
 * The screen at 1280 px and 360 px, light (`{name}-{width}.png`) and, when pictures are written,
 * dark (`{name}-dark-{width}.png`), as `who` chose: axe clean in each; light again after.
 */
async function lookEveryWay(page: Page, who: Api, name: string) {
  await lookAtWidths(page, shots, name);
  if (!writeScreenshots) return;
  await reloadInScheme(page, who, 'dark');
  await lookAtWidths(page, shots, `${name}-dark`);
  await reloadInScheme(page, who, 'light');
}

/** Nothing on the page is wider than the screen. */
const fitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Fills the public registration form (names, email, date of birth, phone) and sends it. */
async function register(page: Page, who: { first: string; last: string; email: string }) {
  await page.getByRole('button', { name: 'Start now' }).click();
  await page.getByRole('heading', { name: 'Your details', level: 1 }).waitFor();
  await page.getByLabel('First name').fill(who.first);
  await page.getByLabel('Last name').fill(who.last);
  await page.getByLabel('Email address').fill(who.email);
  await page.getByTestId('date-year').selectOption('1988');
  await page.getByTestId('date-month').selectOption('6');
  await page.getByTestId('date-day').selectOption('15');
  await page.getByLabel(/^Phone number/).fill('07911 123456');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Check your email', level: 1 }).waitFor();
}

describe('registration portals', () => {
  it('an administrator publishes a portal; a member of the public registers, pays and lands in the case portal', async () => {
    // The administrator adds the portal through the screens.
    const { page } = await world.signedIn(browser, 'admin');
    await page.goto(`/processes/${processId}/registration-portals`);
    await settle(page);
    await page.getByText('No registration portals yet').waitFor();
    await page.getByRole('link', { name: 'Add registration portal' }).first().click();
    await page.waitForURL(`**/processes/${processId}/registration-portals/add`);
    await page.getByRole('heading', { name: 'Add registration portal' }).first().waitFor();
    await lookEveryWay(page, admin, 'registration-portal-add');
    // Nothing entered: the summary and the fields say what is missing.
    await page.getByRole('button', { name: 'Add registration portal' }).click();
    await page.getByText('There is a problem').first().waitFor();
    expect(await axeClean(page)).toEqual([]);
    await page.getByRole('combobox', { name: /^Segment/ }).click();
    await page.getByRole('option', { name: 'North depot' }).click();
    await page.getByLabel(/^Path/).fill('taxi-drivers');
    await page.getByLabel(/^Title/).fill('Taxi driver checks');
    await page
      .getByLabel(/^Introduction/)
      .fill('Register here for the checks every licensed taxi driver needs.');
    await page.getByLabel(/^Who pays/).selectOption('subject');
    await page.getByRole('button', { name: 'Add registration portal' }).click();
    await page.waitForURL(/\/registration-portals\/\d+\/edit$/);
    const link = `/self-initiate/${segmentId}/taxi-drivers`;
    await expect.poll(() => page.getByTestId('public-link').textContent()).toContain(link);
    await settle(page);
    await lookEveryWay(page, admin, 'registration-portal-edit');
    // The QR code to print.
    await page.getByRole('button', { name: 'QR code of Taxi driver checks' }).click();
    await page.getByTestId('qr-code').waitFor();
    // axe reads colours as drawn: after the dialog's fade-in, not half way through it
    await expect
      .poll(() =>
        page
          .getByRole('dialog')
          .evaluate((d) => getComputedStyle(d.closest('.mantine-Modal-content') ?? d).opacity),
      )
      .toBe('1');
    await page.waitForTimeout(300);
    expect(await axeClean(page)).toEqual([]);
    await page.screenshot({ path: `${shots}/registration-portal-qr-1280.png` });
    // and on a phone: the code and its print button within 360 px
    await page.setViewportSize({ width: 360, height: PHONE.height });
    await page.getByTestId('qr-code').waitFor();
    expect(await axeClean(page)).toEqual([]);
    await page.screenshot({ path: `${shots}/registration-portal-qr-360.png` });
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.keyboard.press('Escape');

    await page.goto(`/processes/${processId}/registration-portals`);
    await settle(page);
    await page.getByText('Taxi driver checks').waitFor();
    await lookEveryWay(page, admin, 'registration-portals');

    // A member of the public opens the link on a phone.
    const email = `rita.${Date.now()}@example.test`;
    const phone = await newPage(browser, { viewport: PHONE });
    const p = phone.page;
    await p.goto(link);
    await p.getByRole('heading', { name: 'Taxi driver checks', level: 1 }).waitFor();
    expect(await p.getByTestId('price').textContent()).toBe(formatPence(PRICE_ONLINE));
    await p.getByText('What will be checked').waitFor();
    expect(await fitsWidth(p)).toBe(true);
    await lookAtWidths(p, shots, 'self-initiate');
    await p.setViewportSize(PHONE);
    await register(p, { first: 'Rita', last: "O'Brien", email });
    expect(await p.getByText(email).count()).toBe(1);
    expect(await fitsWidth(p)).toBe(true);
    await lookAtWidths(p, shots, 'self-initiate-check-email');
    await p.setViewportSize(PHONE);

    // The customer sees it started.
    await page.goto('/subjects/registrations');
    await settle(page);
    const row = page.getByRole('row', { name: /Rita O'Brien/ });
    await expect.poll(() => row.textContent()).toContain('Started');

    // The emailed link: a password, and she is signed in.
    await p.goto(await confirmPath(email));
    await p.getByRole('heading', { name: 'Confirm your email', level: 1 }).waitFor();
    await lookAtWidths(p, shots, 'self-initiate-confirm');
    await p.setViewportSize(PHONE);
    await p.locator('#password').fill('taxi-rank-2026-rita');
    await p.locator('#confirm').fill('taxi-rank-2026-rita');
    await p.getByRole('button', { name: 'Confirm and continue' }).click();
    // Her registration awaits its payment: the payment portal, with the simulator's card.
    await p.waitForURL(/\/payment-portal\/[\w-]+(\?.*)?$/, { timeout: 20_000 });
    expect((await registrationOf(email)).state).toBe('awaiting_payment');
    await expect
      .poll(() => p.getByTestId('amount').textContent(), { timeout: 30_000 })
      .toMatch(/^£\d+\.\d{2}$/);
    await p.locator('#card-name').fill("Rita O'Brien");
    await p.locator('#card-number').fill('4242 4242 4242 4242');
    await p.locator('#card-expiry').fill('12/34');
    await p.locator('#card-cvc').fill('123');
    await p.getByRole('button', { name: /^Pay £/ }).click();
    await expect.poll(() => p.getByText('Payment received').count(), { timeout: 30_000 }).toBe(1);
    // the webhook settles it, then the job opens her case in the customer's tenant
    await expect
      .poll(async () => (await registrationOf(email)).state, { timeout: 30_000 })
      .toBe('case_created');
    // Continue: on to the portal's signed-in page (the link's next), which leads to her case
    await p.getByRole('link', { name: 'Continue' }).click();
    // the guard first asks a new subject to complete their profile (then back here)
    const startButton = p.getByRole('button', { name: 'Start my checks' });
    const profile = p.getByRole('heading', { name: 'Complete your profile', level: 1 });
    await expect
      .poll(async () => (await startButton.count()) + (await profile.count()), { timeout: 30_000 })
      .toBeGreaterThan(0);
    if ((await profile.count()) > 0) {
      if (!(await p.getByTestId('date-year').inputValue())) {
        await p.getByTestId('date-year').selectOption('1988');
        await p.getByTestId('date-month').selectOption('6');
        await p.getByTestId('date-day').selectOption('15');
      }
      await p.locator('#complete-terms').check();
      await p.getByRole('button', { name: 'Continue' }).click();
    }
    // (its address may keep the link's query: the guard's redirect of a signed-in subject)
    await p.waitForURL((url) => url.pathname === `/s${link}`, { timeout: 20_000 });
    await p.getByRole('button', { name: 'Start my checks' }).waitFor();
    await lookEveryWay(p, await pageApi(p), 's-self-initiate');
    await p.setViewportSize(PHONE);
    // Paid: the same button takes her to her registration's case (not a second one).
    await p.getByRole('button', { name: 'Start my checks' }).click();
    await p.waitForURL(/\/s\/case-portal\/\d+/, { timeout: 20_000 });
    const caseId = Number(/\/s\/case-portal\/(\d+)/.exec(p.url())?.[1]);
    expect(caseId).toBeGreaterThan(0);
    await p.getByRole('heading', { level: 1 }).first().waitFor();
    await p.screenshot({ path: `${shots}/case-portal-after-registration-360.png`, fullPage: true });
    await phone.context.close();

    // The customer sees the registration with its case, and opens it.
    await page.goto('/subjects/registrations');
    await settle(page);
    await expect.poll(() => row.textContent(), { timeout: 20_000 }).toContain('Case created');
    await lookEveryWay(page, admin, 'subject-registrations');
    await row.getByRole('link', { name: "Rita O'Brien" }).click();
    await page.waitForURL(/\/portal-registrations\/\d+$/);
    await page.getByRole('heading', { name: "Rita O'Brien", level: 1 }).waitFor();
    await settle(page);
    await page.getByTestId('registration-events').waitFor();
    await expect
      .poll(() => page.getByTestId('registration-events').textContent())
      .toMatch(/Started.*Email confirmed.*Awaiting payment.*Paid.*Case created/s);
    await lookEveryWay(page, admin, 'portal-registration');
    await page.getByRole('link', { name: `Case #${caseId}` }).click();
    await page.waitForURL(`**/cases/${caseId}`);
    await page.getByRole('heading', { name: `Case #${caseId}`, level: 1 }).waitFor();

    // Her subject page's Registrations tab lists this registration with its case.
    const subjectId = (await registrationOf(email)).subject_id;
    expect(subjectId).not.toBeNull();
    await page.goto(`/subjects/${subjectId}`);
    await page.getByRole('tab', { name: 'Registrations' }).click();
    const tabRow = page.getByRole('row').filter({ hasText: `#${caseId}` });
    await expect.poll(() => tabRow.textContent(), { timeout: 20_000 }).toContain('Case created');
    expect(await tabRow.textContent()).toContain(`#${caseId}`);
    await lookAtWidths(page, shots, 'subject-registrations-tab');
    if (writeScreenshots) {
      // dark, the tab chosen again after the reload
      await reloadInScheme(page, admin, 'dark');
      await page.getByRole('tab', { name: 'Registrations' }).click();
      await expect.poll(() => tabRow.textContent()).toContain('Case created');
      await lookAtWidths(page, shots, 'subject-registrations-tab-dark');
      await reloadInScheme(page, admin, 'light');
    }
  });

  it('a registration abandoned is found expired 48 hours later', async () => {
    const email = `abe.${Date.now()}@example.test`;
    const phone = await newPage(browser, { viewport: PHONE });
    const p = phone.page;
    await p.goto(`/self-initiate/${segmentId}/taxi-drivers`);
    await p.getByRole('heading', { name: 'Taxi driver checks', level: 1 }).waitFor();
    await register(p, { first: 'Abe', last: 'Andon', email });
    const confirm = await confirmPath(email);

    // 49 hours on, the expiry runs (the queue's job, at a moved 'now').
    const now = new Date(Date.now() + 49 * 3_600_000).toISOString();
    const run = await send(admin, 'post', '/api/test-fixtures/registration-expiry/', { now });
    expect((run as { expired: number }).expired).toBeGreaterThan(0);
    expect((await registrationOf(email)).state).toBe('expired');

    const { page } = await world.signedIn(browser, 'admin');
    await page.goto('/subjects/registrations?state=expired');
    await settle(page);
    const row = page.getByRole('row', { name: /Abe Andon/ });
    await expect.poll(() => row.textContent()).toContain('Expired');
    await row.getByRole('link', { name: 'Abe Andon' }).click();
    await page.getByRole('heading', { name: 'Abe Andon', level: 1 }).waitFor();
    await settle(page);
    expect(await page.getByRole('button', { name: 'Resend confirmation' }).count()).toBe(0);
    expect(await page.getByText('None: the registration expired').count()).toBe(1);
    await lookEveryWay(page, admin, 'portal-registration-expired');

    // The emailed link no longer works.
    await p.goto(confirm);
    await p.locator('#password').fill('too-late-for-this-1');
    await p.locator('#confirm').fill('too-late-for-this-1');
    await p.getByRole('button', { name: 'Confirm and continue' }).click();
    await p.getByText('This link cannot be used').waitFor();
    expect(await axeClean(p)).toEqual([]);
    await p.screenshot({ path: `${shots}/self-initiate-link-expired-360.png`, fullPage: true });
    await phone.context.close();
  });

  it('a closed portal says so', async () => {
    const portals = (await (
      await admin.api.get(`/api/processes/${processId}/registration-portals/`)
    ).json()) as { results: { id: number }[] };
    const id = portals.results[0]?.id;
    await send(admin, 'patch', `/api/processes/${processId}/registration-portals/${id}/`, {
      open: false,
    });
    const { context, page } = await newPage(browser, { viewport: PHONE });
    await page.goto(`/self-initiate/${segmentId}/taxi-drivers`);
    await page.getByText('This registration is closed.').waitFor();
    expect(await page.getByRole('button', { name: 'Start now' }).count()).toBe(0);
    await lookAtWidths(page, shots, 'self-initiate-closed');
    await context.close();
  });
});
