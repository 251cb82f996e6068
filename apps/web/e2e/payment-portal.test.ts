import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import { axe, launch, newPage, PHONE, screenshotDir } from './helpers';

// Paying a top-up in the public payment portal (issue 17): an awaited top-up of £3.50 on a demo
// basic check, paid at phone width with a card that asks for a 3-D Secure challenge (the
// payments simulator's own page), then settled by the simulator's signed webhook.

// The customer (in demo mode, so its staff may choose checks) and operations are a world of this
// file's own (e2e/fixtures.ts): its processes and cases stay out of the demo customers' lists.
let browser: Browser;
let world: World;
beforeAll(async () => {
  browser = await launch();
  world = await newWorld({ demoMode: true, ops: true });
});
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

const shot = async (page: Page, name: string) => {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({
    path: join(screenshotDir, `payment-portal-${name}.png`),
    fullPage: true,
  });
};

let made = 0;

/**
 * A new case of the world's customer (demo mode: its staff may choose checks) with one basic check, made to await a top-up of £3.50 (operations write its
 * processing data, as the check engine would), and its payment intent.
 */
async function awaitingTopUp(): Promise<{ publicId: string; activityId: number }> {
  made += 1;
  const tag = `${Date.now()}-${made}`;
  const admin = await world.api('admin');
  const headers = () => ({ 'X-CSRFToken': admin.csrf() });
  const process = await admin.api.post('/api/processes/', {
    headers: headers(),
    data: {
      name: `Top-up e2e ${tag}`,
      send_invitation: false,
      requirements: [{ activity_type: 'dbs-basic', config: {} }],
    },
  });
  expect(process.status(), await process.text()).toBe(201);
  const created = await admin.api.post('/api/cases/', {
    headers: headers(),
    data: {
      process: (await process.json()).id,
      new_subject: { first_name: 'Ada', last_name: 'Topup', email: `topup-${tag}@example.test` },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const activity = ((await created.json()).case_activities as { id: number }[])[0];
  if (!activity) throw new Error('no activity');
  const ops = await world.api('ops');
  const patched = await ops.api.patch(`/api/ops/case-activities/${activity.id}/`, {
    headers: { 'X-CSRFToken': ops.csrf() },
    data: {
      processing_data: {
        provider: 'dbs-basic',
        reference: null,
        idempotency_key: `e2e-ca-${activity.id}`,
        attempts: 0,
        last_error: null,
        stage: null,
        event_ids: [],
        events: [],
        top_up: {
          amount_pence: 350,
          reason: 'Paper certificate by post',
          status: 'awaiting',
          payment_intent: null,
        },
      },
    },
  });
  expect(patched.status(), await patched.text()).toBe(200);
  const intentRes = await admin.api.post('/api/payment-intents/', {
    headers: headers(),
    data: { case_activity: activity.id },
  });
  expect(intentRes.status(), await intentRes.text()).toBe(201);
  const intent = await intentRes.json();
  expect(intent).toMatchObject({ amount_pence: 350, amount_display: '£3.50', outcome: 'awaiting' });
  return { publicId: intent.public_id, activityId: activity.id };
}

describe('the payment portal', () => {
  it('pays a top-up with a 3-D Secure challenge at phone width', async () => {
    const { publicId, activityId } = await awaitingTopUp();
    const { context, page } = await newPage(browser, { viewport: PHONE });
    await page.goto(`/payment-portal/${publicId}`);
    await expect
      .poll(() => page.getByTestId('amount').textContent(), { timeout: 15_000 })
      .toBe('£3.50');
    await expect
      .poll(() => page.getByText('Paper certificate by post: Basic DBS check').count())
      .toBe(1);
    expect(await axe(page)).toEqual([]);
    await shot(page, 'phone-form');

    // Nothing entered: the errors, summarised at the top and linked to their fields.
    await page.getByRole('button', { name: 'Pay £3.50' }).click();
    const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
    await expect.poll(() => summary.count()).toBe(1);
    const link = summary.getByRole('link', { name: 'Enter your card number' });
    expect(await link.getAttribute('href')).toBe('#card-number');
    expect(await axe(page)).toEqual([]);
    await shot(page, 'phone-errors');
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
    const button = await page.getByRole('button', { name: 'Pay £3.50' }).boundingBox();
    expect(button?.height ?? 0).toBeGreaterThanOrEqual(44);

    await page.locator('#card-name').fill('Ada Smith');
    await page.locator('#card-number').fill('4000 0000 0000 3220');
    await page.locator('#card-expiry').fill('12/34');
    await page.locator('#card-cvc').fill('123');
    await page.getByRole('button', { name: 'Pay £3.50' }).click();

    // The simulator's 3-D Secure challenge page.
    await page.waitForURL(/\/simulator\/payments\/3ds\//, { timeout: 15_000 });
    await expect.poll(() => page.getByText('£3.50').count()).toBe(1);
    expect(await axe(page)).toEqual([]);
    await shot(page, 'phone-challenge');
    // Back to the portal before answering: it offers to continue the bank's check.
    await page.goBack();
    await expect
      .poll(() => page.getByText('Your bank needs to confirm this payment.').count(), {
        timeout: 15_000,
      })
      .toBe(1);
    expect(await axe(page)).toEqual([]);
    await shot(page, 'phone-challenge-pending');
    // Nothing wider than the phone.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
    await page.getByRole('link', { name: "Continue to your bank's check" }).click();
    await page.waitForURL(/\/simulator\/payments\/3ds\//, { timeout: 15_000 });
    await page.getByRole('button', { name: 'Complete authentication' }).click();

    await page.waitForURL(new RegExp(`/payment-portal/${publicId}$`), { timeout: 15_000 });
    await expect
      .poll(() => page.getByText('Payment received').count(), { timeout: 15_000 })
      .toBe(1);
    expect(await page.getByRole('button', { name: /Pay/ }).count()).toBe(0);
    expect(await axe(page)).toEqual([]);
    await shot(page, 'phone-paid');

    const admin = await world.api('admin');
    const a = await (await admin.api.get(`/api/case-activities/${activityId}/`)).json();
    expect(a.processing_data.top_up).toMatchObject({ status: 'paid', payment_intent: publicId });
    const paid = await (
      await admin.api.get('/api/payments/', { params: { case_activity: activityId } })
    ).json();
    expect(paid.results[0]).toMatchObject({ kind: 'portal', state: 'paid', amount_pence: 350 });
    await context.close();
  });

  it('a declined card shows the declined state (desktop, Harrier brand key)', async () => {
    const { publicId, activityId } = await awaitingTopUp();
    const { context, page } = await newPage(browser, { host: '127.0.0.1' });
    await page.goto(`/payment-portal/${publicId}`);
    await expect
      .poll(() => page.getByTestId('amount').textContent(), { timeout: 15_000 })
      .toBe('£3.50');
    expect(await page.getByText('Harrier Vetting').count()).toBeGreaterThan(0);
    expect(await axe(page)).toEqual([]);
    await shot(page, 'desktop-form');
    await page.locator('#card-name').fill('Ada Topup');
    await page.locator('#card-number').fill('4000 0000 0000 0002');
    await page.locator('#card-expiry').fill('12/34');
    await page.locator('#card-cvc').fill('123');
    await page.getByRole('button', { name: 'Pay £3.50' }).click();
    await expect
      .poll(() => page.getByText('Payment declined').count(), { timeout: 15_000 })
      .toBe(1);
    expect(await page.getByText('Your card was declined.', { exact: true }).count()).toBe(1);
    expect(await axe(page)).toEqual([]);
    await shot(page, 'desktop-declined');
    const admin = await world.api('admin');
    const a = await (await admin.api.get(`/api/case-activities/${activityId}/`)).json();
    expect(a.state).toBe('ca-pending-activity-decision');
    await context.close();
  });

  it('an unknown link says so (desktop)', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/payment-portal/pit_AAAAAAAAAAAAAAAAAAAAAAAA');
    await expect
      .poll(() => page.getByText('This payment link is not valid.').count(), { timeout: 15_000 })
      .toBe(1);
    expect(await axe(page)).toEqual([]);
    await shot(page, 'desktop-missing');
    await context.close();
  });
});
