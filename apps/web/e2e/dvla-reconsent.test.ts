import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveConsents, newWorld, type World } from './fixtures';
import {
  type Api,
  axeClean,
  DESKTOP,
  launch,
  lookLightAndDark,
  PHONE,
  screenshotDir,
  send,
  settle,
  steady,
} from './helpers';

// The subject's DVLA re-consent (issue 33): a driver check's mandate, given in the portal, is
// moved to end in 20 days (a test fixture; the server's clock stays) and the expiry reminders
// run; the reminder in the outbox links /s/dvla-reconsent; the subject signs in on a phone,
// renews and sees the confirmation; the customer's expiry calendar no longer lists the old date
// and the new one is 3 years on. Screenshots at 390 and 1280 px, axe clean.

const shots = join(screenshotDir, 'dvla-reconsent');
mkdirSync(shots, { recursive: true });

let browser: Browser;
let world: World;
let admin: Api;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    ops: true,
    processes: [{ name: 'Drivers', requirements: ['driver-data'] }],
    subjects: [{ key: 'sam', firstName: 'Sam', lastName: 'Mandate' }],
  });
  admin = await world.api('admin');
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

/** The page at 390 and 1280 px: axe clean, a full-page screenshot of each. */
async function look(page: Page, name: string) {
  for (const viewport of [PHONE, { ...DESKTOP, width: 1280 }]) {
    await page.setViewportSize(viewport);
    await steady(page);
    expect(await axeClean(page), `${name} at ${viewport.width}`).toEqual([]);
    await page.screenshot({ path: join(shots, `${name}-${viewport.width}.png`), fullPage: true });
  }
}

describe('DVLA re-consent', () => {
  it('reminds by email, the subject renews on a phone, the calendar moves on', async () => {
    const caseId = await world.openCase('Drivers', 'sam');
    const sam = await world.api('sam');
    await giveConsents(sam, caseId);
    const moved = await send(admin, 'post', '/api/test-fixtures/dvla-mandates-due/', {
      customer: world.customer.id,
      days_left: 20,
    });
    expect(moved).toEqual({ consents: 1, reminders: 1 });
    const ends = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);

    // the reminder in the outbox links the page
    const ops = await world.api('ops');
    const email = world.username('sam');
    type Mail = { subject: string; text: string };
    const reminder = async () =>
      (
        (await (await ops.api.get('/api/ops/outbox/', { params: { to: email } })).json()) as {
          results: Mail[];
        }
      ).results.find((m) => m.subject === 'Please renew your consent for driving licence checks');
    await expect.poll(reminder, { timeout: 30_000 }).toBeTruthy();
    const text = (await reminder())?.text ?? '';
    const link = /https?:\/\/\S+\/s\/dvla-reconsent\b/.exec(text)?.[0];
    expect(link, text).toBeTruthy();

    // the customer's calendar lists the mandate's date
    const calendar = async () =>
      (
        (await (
          await admin.api.get('/api/expiry-calendar/', {
            params: { kind: 'dvla-consent', days: 366 },
          })
        ).json()) as { results: { subject_email: string; expires_on: string }[] }
      ).results.filter((r) => r.subject_email === email);
    expect((await calendar()).map((r) => r.expires_on)).toEqual([ends]);

    // the subject signs in on a phone: the dashboard asks, the link opens the page
    const { page } = await world.signedIn(browser, 'sam', { viewport: PHONE });
    await page.goto('/s/dashboard');
    await page.getByTestId('dvla-prompt').waitFor();
    await settle(page);
    await page.goto(new URL(link ?? '').pathname);
    await page.getByRole('heading', { name: 'Driving licence consent', level: 1 }).waitFor();
    await settle(page);
    const card = page.getByTestId('dvla-renewal');
    await card.getByRole('heading', { name: world.customer.name }).waitFor();
    await card.getByText(/^Your consent ends on /).waitFor();
    await look(page, 'due');
    await lookLightAndDark(page, sam, shots, 'due');
    await page.setViewportSize(PHONE);

    // agreeing is required; then 'Renew my consent', and the confirmation
    const renew = page.getByRole('button', { name: 'Renew my consent' });
    const box = await renew.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
    await renew.click();
    await page.getByTestId('error-summary').waitFor();
    await page
      .getByRole('checkbox', {
        name: 'I consent to these checks of my driving licence and driver record with the DVLA.',
      })
      .check();
    await renew.click();
    const done = page.getByTestId('dvla-renewed');
    await done.getByRole('heading', { name: 'Consent renewed' }).waitFor();
    const renewedUntil = new Date();
    renewedUntil.setUTCFullYear(renewedUntil.getUTCFullYear() + 3);
    await expect.poll(() => done.textContent()).toContain(world.customer.name);
    await settle(page);
    await look(page, 'renewed');

    // renewed: nothing due; the calendar no longer lists the old date, the new one is 3 years on
    const due = await (await sam.api.get('/api/s/dvla-reconsent/')).json();
    expect(due.count).toBe(0);
    expect(await calendar()).toEqual([]);
    const consents = (await (await sam.api.get('/api/s/consents/')).json()) as {
      results: { case: number; kind: string; status: string; expires_at: string }[];
    };
    const current = consents.results.filter((c) => c.case === caseId && c.kind === 'driver-data');
    expect(current.map((c) => [c.status, c.expires_at.slice(0, 10)])).toEqual([
      ['active', renewedUntil.toISOString().slice(0, 10)],
    ]);
    // the customer's calendar page: nothing of Sam's expires in its window any more
    const staff = await world.signedIn(browser, 'admin');
    await staff.page.goto('/expiry-calendar?search=mandate');
    await staff.page.getByRole('heading', { name: 'Expiry calendar', level: 1 }).waitFor();
    await settle(staff.page);
    await staff.page.getByText('Nothing expires in this window.').waitFor();
    // the customer's administrators were told
    const told = async () =>
      (
        (await (
          await ops.api.get('/api/ops/outbox/', { params: { to: world.username('admin') } })
        ).json()) as { results: Mail[] }
      ).results.filter(
        (m) => m.subject === 'Sam Mandate renewed their consent for driving licence checks',
      );
    await expect.poll(async () => (await told()).length, { timeout: 30_000 }).toBe(1);
  }, 300_000);
});
