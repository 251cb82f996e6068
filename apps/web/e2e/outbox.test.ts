import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Page, request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiAs,
  axeClean,
  baseUrl,
  launch,
  loginUi,
  newPage,
  PHONE,
  place,
  signedIn,
  steady,
} from './helpers';

// The ops outbox: a real email (a password reset) found by search, opened, its link followed.

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

const shots = mkdtempSync(join(tmpdir(), 'kestrel-outbox-'));
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

const RECIPIENT = 'viewer@acme.test';
const LATER = 'admin@northgate.test';

/** Asks for a password reset as a visitor would; the email lands in the outbox. */
async function requestReset(email: string) {
  const api = await request.newContext({ baseURL: baseUrl() });
  const { csrf_token } = await (await api.get('/api/accounts/check-session/')).json();
  const res = await api.post('/api/accounts/password-reset/', {
    data: { email },
    headers: { 'X-CSRFToken': csrf_token },
  });
  expect(res.status(), await res.text()).toBe(200);
  await api.dispose();
}

describe('ops outbox', () => {
  it('lists a sent email, finds it by search and shows it with a working link', async () => {
    const ops = await apiAs('ops@kestrel.test');
    const latestTo = async (to: string) =>
      (
        await ops.api.get('/api/ops/outbox/', {
          params: { to, ordering: '-created_at', page_size: 1 },
        })
      ).json();
    const latest = () => latestTo(RECIPIENT);
    const before: number = (await latest()).count;
    await requestReset(RECIPIENT);
    // The email is a job of the request's transaction: it lands a moment after the answer.
    await expect.poll(async () => (await latest()).count).toBeGreaterThan(before);
    const sent = await latest();
    const mail: { id: number; subject: string; text: string } = sent.results[0];
    expect(mail.subject).toBe('Reset your Kestrel Checks password');
    const link = /https?:\/\/\S+\/auth\/password-reset-confirm\?token=\S+/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeTruthy();

    const { context, page } = await newPage(browser);
    await loginUi(page, 'ops@kestrel.test', undefined, '/login?next=%2Fops%2Fdashboard');
    await page.waitForURL('**/ops/dashboard');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Outbox' })
      .click();
    await page.waitForURL('**/ops/outbox');
    await page.getByRole('heading', { name: 'Outbox', level: 1 }).waitFor();
    await page.getByRole('table').getByRole('link').first().waitFor();

    // A newer email shows after Refresh, above the earlier one (other files share this server and
    // send emails of their own meanwhile: CI once had another newer still, so not always on top).
    // The email is a job: Refresh once it has landed (under CI's load it came after the click).
    const laterBefore: number = (await latestTo(LATER)).count;
    await requestReset(LATER);
    await expect.poll(async () => (await latestTo(LATER)).count).toBeGreaterThan(laterBefore);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await ops.api.dispose();
    await expect
      .poll(async () => {
        const texts = await page.getByRole('table').locator('tbody tr').allTextContents();
        const later = texts.findIndex((t) => t.includes(LATER));
        const earlier = texts.findIndex((t) => t.includes(RECIPIENT));
        return later >= 0 && (earlier < 0 || later < earlier);
      })
      .toBe(true);

    await page.getByLabel('Search emails').fill(RECIPIENT);
    const rows = page.getByRole('table').getByRole('row').filter({ hasText: RECIPIENT });
    await rows.first().waitFor();
    // Every row is for the recipient (the search applied), newest first: ours is the first.
    await expect
      .poll(async () =>
        (await page.getByRole('table').locator('tbody tr').allTextContents()).every((t) =>
          t.includes(RECIPIENT),
        ),
      )
      .toBe(true);
    expect(await rows.first().textContent()).toContain('Reset your Kestrel Checks password');
    expect(await axeClean(page)).toEqual([]);
    await shot(page, 'outbox-list-desktop');

    await rows.first().getByRole('link').click();
    await page.waitForURL(`**/ops/outbox/${mail.id}`);
    await page
      .getByRole('heading', { name: 'Reset your Kestrel Checks password', level: 1 })
      .waitFor();
    const main = page.getByRole('main');
    expect(await main.textContent()).toContain(RECIPIENT);
    expect(await main.textContent()).toMatch(
      /Received\d{1,2}(st|nd|rd|th) \w{3} \d{4} \d\d:\d\d:\d\d UTC/,
    );
    const body = page.getByTestId('outbox-text');
    expect(await body.textContent()).toBe(mail.text);
    // Two links: the reset address, then the brand's site in the signature.
    const anchor = body.getByRole('link');
    expect(await anchor.count()).toBe(2);
    expect(await anchor.first().getAttribute('href')).toBe(link);
    expect(await anchor.last().getAttribute('href')).toBe(new URL(link ?? '').origin);
    expect(await axeClean(page)).toEqual([]);
    await shot(page, 'outbox-email-desktop');

    await page.setViewportSize(PHONE);
    await steady(page);
    expect(await axeClean(page)).toEqual([]);
    await shot(page, 'outbox-email-phone');
    await page.getByRole('link', { name: '← Outbox' }).click();
    await page.getByRole('table').getByRole('link').first().waitFor();
    expect(await axeClean(page)).toEqual([]);
    await shot(page, 'outbox-list-phone');

    // The link is a real link: following it opens its address.
    await page.goto(`/ops/outbox/${mail.id}`);
    await page.route(link ?? '', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>followed</title>' }),
    );
    // The text links the reset address first, then (in its signature) the brand's site.
    await page.getByTestId('outbox-text').getByRole('link').first().click();
    await page.waitForURL(link ?? '');
    await context.close();
  });

  it('says so for an email that is not in the outbox', async () => {
    const { context, page } = await newPage(browser);
    await loginUi(page, 'ops@kestrel.test', undefined, '/login?next=%2Fops%2Foutbox%2F999999');
    await page.getByText('This email is not in the outbox.').waitFor();
    expect(place(page)).toBe('/ops/outbox/999999');
    expect(await axeClean(page)).toEqual([]);
    await context.close();
  });

  it('is not open to customer users', async () => {
    const { context, page } = await signedIn(browser, 'admin@acme.test');
    await page.goto('/ops/outbox');
    await page.waitForURL('**/dashboard');
    expect(place(page)).toBe('/dashboard');
    await context.close();
  });
});

afterAll(() => {
  console.info(`outbox screenshots: ${shots}`);
});
