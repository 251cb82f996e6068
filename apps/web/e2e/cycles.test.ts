import { CASE_PAYMENT_REASONS, formatDate, PAYMENT_METHOD_MESSAGES } from '@kestrel/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import {
  type Api,
  launch,
  lookAtWidths,
  reloadInScheme,
  send,
  settle,
  writeScreenshots,
} from './helpers';

// Cycles and subscriptions (issue 31): a process's cycles, the add and edit forms, all
// subscriptions, the bulk subscribe dialog, a subject's subscriptions tab and its add form, each
// at 1280 px and 360 px, light and dark, axe clean.

const shots = '/tmp/shots/cycles';

let browser: Browser;
let world: World;
let admin: Api;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    entitlements: ['cycles'],
    processes: [{ name: 'Drivers', requirements: ['dbs-update', 'driver-data'] }],
    subjects: [
      { key: 'sam', firstName: 'Sam', lastName: 'Green' },
      { key: 'pat', firstName: 'Pat', lastName: 'Moss' },
      { key: 'lee', firstName: 'Lee', lastName: 'Hart' },
    ],
    ops: true,
  });
  admin = await world.api('admin');
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

/**
 * The screen at 1280 px and 360 px, light (`{name}-{width}.png`) and, when pictures are written,
 * dark (`{name}-dark-{width}.png`): axe clean in each; light again after.
 */
async function lookEveryWay(page: Page, name: string) {
  await lookAtWidths(page, shots, name);
  if (!writeScreenshots) return;
  await reloadInScheme(page, admin, 'dark');
  await lookAtWidths(page, shots, `${name}-dark`);
  await reloadInScheme(page, admin, 'light');
}

/** Ticks Sam and Lee on the subjects list and opens the bulk subscribe dialog. */
async function openBulkSubscribe(page: Page) {
  await page.getByRole('checkbox', { name: 'Choose Sam Green' }).check();
  await page.getByRole('checkbox', { name: 'Choose Lee Hart' }).check();
  await page.getByText('2 subjects chosen').waitFor();
}

describe('cycles and subscriptions screens', () => {
  it('shows the cycles, the add form, the subscriptions and the subject tab', async () => {
    const processId = world.processes.Drivers;
    const subjectId = world.subjects.sam?.id;
    const cycle = await send(admin, 'post', `/api/processes/${processId}/cycles/`, {
      name: 'Update service',
      requirements: ['dbs-update', 'driver-data'],
      repeat_interval: 6,
      repeat_unit: 'monthly',
      billing_interval: 1,
      billing_triggered: 'yearly',
    });
    await send(admin, 'post', `/api/subjects/${subjectId}/subscriptions/`, {
      cycle: (cycle as { id: number }).id,
    });
    const { page } = await world.signedIn(browser, 'admin');
    await page.goto(`/processes/${processId}/cycles`);
    await settle(page);
    await expect.poll(() => page.getByText('Every 6 months').count()).toBeGreaterThan(0);
    await lookEveryWay(page, 'cycles');
    await page.goto(`/processes/${processId}/cycles/${(cycle as { id: number }).id}/edit`);
    await settle(page);
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Name' }).inputValue())
      .toBe('Update service');
    await lookEveryWay(page, 'cycle-edit');
    await page.goto(`/processes/${processId}/cycles/add`);
    await settle(page);
    await lookEveryWay(page, 'cycle-add');
    await page.goto('/subscriptions');
    await settle(page);
    await expect.poll(() => page.getByText('Sam Green').count()).toBeGreaterThan(0);
    await lookEveryWay(page, 'subscriptions');
    // in bulk from the subjects list: Sam (already subscribed, left) and Lee
    await page.goto('/subjects');
    await settle(page);
    const dialog = page.getByRole('dialog', { name: 'Subscribe 2 subjects to a cycle' });
    if (writeScreenshots) {
      // the dialog dark (a reload forgets the ticks: chosen again after)
      await reloadInScheme(page, admin, 'dark');
      await openBulkSubscribe(page);
      await lookAtWidths(page, shots, 'subjects-chosen-dark');
      await page.getByRole('button', { name: 'Subscribe to a cycle' }).click();
      await dialog.waitFor();
      await lookAtWidths(page, shots, 'bulk-subscribe-dark');
      await reloadInScheme(page, admin, 'light');
    }
    await openBulkSubscribe(page);
    await lookAtWidths(page, shots, 'subjects-chosen');
    await page.getByRole('button', { name: 'Subscribe to a cycle' }).click();
    await dialog.waitFor();
    await lookAtWidths(page, shots, 'bulk-subscribe');
    await dialog.getByRole('combobox', { name: 'Cycle', exact: true }).click();
    await page.getByRole('option', { name: /^Update service/ }).click();
    await dialog.getByRole('button', { name: 'Subscribe' }).click();
    await page
      .getByText('1 subject subscribed; 1 already subscribed, left as they were.')
      .waitFor();
    await page.goto('/subscriptions');
    await expect.poll(() => page.getByText('Lee Hart').count()).toBeGreaterThan(0);
    await page.goto(`/subjects/${subjectId}/subscriptions`);
    await settle(page);
    await expect.poll(() => page.getByText('Update service').count()).toBeGreaterThan(0);
    await lookEveryWay(page, 'subject-subscriptions');
    await page.goto(`/subjects/${subjectId}/subscriptions/add`);
    await settle(page);
    await lookEveryWay(page, 'subject-subscription-add');
  });

  it('a six-monthly update-service cycle: the clock moves, a case opens once and the subject is invited', async () => {
    const processId = world.processes.Drivers;
    const pat = world.subjects.pat;
    if (!pat) throw new Error('no subject');
    await send(admin, 'post', `/api/processes/${processId}/cycles/`, {
      name: 'Six-monthly update',
      requirements: ['dbs-update'],
      repeat_interval: 6,
      repeat_unit: 'monthly',
      billing_interval: 1,
      billing_triggered: 'yearly',
    });
    // the administrator subscribes Pat, first due tomorrow
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const { page } = await world.signedIn(browser, 'admin');
    await page.goto(`/subjects/${pat.id}/subscriptions/add`);
    await page.getByRole('combobox', { name: 'Cycle', exact: true }).click();
    await page.getByRole('option', { name: /Six-monthly update/ }).click();
    await page.getByLabel('First due date').fill(tomorrow);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL(`**/subjects/${pat.id}/subscriptions`);
    const row = page.getByRole('row', { name: /Six-monthly update/ });
    await expect.poll(() => row.textContent()).toContain(formatDate(`${tomorrow}T00:00:00Z`));

    const ops = await world.api('ops');
    const casesOfPat = async () =>
      (
        (await (await admin.api.get('/api/cases/', { params: { subject: pat.id } })).json()) as {
          count: number;
          results: { id: number }[];
        }
      ).results.map((c) => c.id);
    const mailsToPat = async () =>
      (
        (await (await ops.api.get('/api/ops/outbox/', { params: { to: pat.email } })).json()) as {
          count: number;
        }
      ).count;
    const due = (at: string) =>
      send(admin, 'post', '/api/test-fixtures/subscriptions-due/', {
        customer: world.customer.id,
        at,
      });
    expect(await casesOfPat()).toEqual([]);
    // the update service is priced (£13.00) and no card is saved: each period's charge fails
    await send(ops, 'post', `/api/ops/customers/${world.customer.id}/pricebooks/`, {
      name: 'Cycle prices',
      valid_from: new Date().toISOString().slice(0, 10),
      prices: [{ activity_type: 'dbs-update', level: null, amount_pence: 1300 }],
    });

    // the clock reaches the first due date: one case, the subject invited; run again: nothing more
    await due(`${tomorrow}T01:00:00Z`);
    await due(`${tomorrow}T01:05:00Z`);
    const first = await casesOfPat();
    expect(first).toHaveLength(1);
    await expect.poll(mailsToPat, { timeout: 30_000 }).toBe(1);
    const sixMonths = new Date(`${tomorrow}T00:00:00Z`);
    sixMonths.setUTCMonth(sixMonths.getUTCMonth() + 6);
    await page.reload();
    await expect.poll(() => row.textContent()).toContain(formatDate(sixMonths.toISOString()));
    await lookAtWidths(page, shots, 'subject-subscriptions-after-due');
    // the period's billing failed (no card): shown with the reason and 'Retry payment', which
    // says why it cannot charge yet
    await expect.poll(() => row.textContent()).toContain('Payment failed');
    expect(await row.textContent()).toContain(`£13.00, ${formatDate(`${tomorrow}T01:00:00Z`)}`);
    // retried by itself once a card is saved (issue 31), as the row says
    expect(await row.textContent()).toContain(PAYMENT_METHOD_MESSAGES.retriedWhenCardSaved);
    await lookEveryWay(page, 'subject-subscriptions-payment-failed');
    await page
      .getByRole('button', { name: 'Retry payment for Pat Moss: Six-monthly update' })
      .click();
    await page.getByText(CASE_PAYMENT_REASONS.noPaymentMethod).first().waitFor();
    await page.goto('/subscriptions');
    await settle(page);
    await expect
      .poll(() => page.getByRole('row', { name: /Pat Moss/ }).textContent())
      .toContain('Payment failed');
    await lookEveryWay(page, 'subscriptions-payment-failed');
    await page.goto(`/subjects/${pat.id}/subscriptions`);

    // six months on: the next period's case, once, and a second invitation
    const later = new Date(sixMonths.getTime() + 3_600_000).toISOString();
    await due(later);
    await due(later);
    expect(await casesOfPat()).toHaveLength(2);
    await expect.poll(mailsToPat, { timeout: 30_000 }).toBe(2);
    await page.goto(`/cases/${first[0]}`);
    await page.getByRole('heading', { name: `Case #${first[0]}`, level: 1 }).waitFor();
    await page.getByText('Awaiting subject').first().waitFor();

    // a card saved on the payment settings: the failed periods are charged to it by themselves
    // (the card-retry job), and the subscription's last period shows paid
    await page.goto('/payment-settings');
    await page.getByRole('heading', { name: 'Payment settings' }).waitFor();
    await page.getByText(PAYMENT_METHOD_MESSAGES.automaticRetry).waitFor();
    await page.getByRole('link', { name: 'Add a card' }).click();
    await page.getByRole('heading', { name: 'Add a card' }).waitFor();
    await page.getByLabel('Name on card').fill('Ada Admin');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry date').fill('12/34');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.waitForURL(/\/payment-settings$/, { timeout: 15_000 });
    await page.getByTestId('payment-method').getByText('Default').waitFor();
    await page.goto(`/subjects/${pat.id}/subscriptions`);
    await expect
      .poll(
        async () => {
          await page.reload();
          await settle(page);
          return row.textContent();
        },
        { timeout: 30_000 },
      )
      .toContain('Paid');
    expect(await row.textContent()).not.toContain('Payment failed');
    await lookEveryWay(page, 'subject-subscriptions-paid');
    await ops.api.dispose();
  });
});
