import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REMINDER_TOO_SOON } from '@kestrel/domain';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import {
  type Api,
  launch,
  lookAtWidths,
  lookLightAndDark,
  screenshotDir,
  send,
  settle,
} from './helpers';

// Reminders and the invitation lifecycle (issue 33): a customer sets a cadence and an expiry on
// its process, a case is opened, the due job's clock moves for this world's customer only, a
// reminder appears in the outbox, the invitation expires and is resent from the case page.

const shots = join(screenshotDir, 'reminders');
mkdirSync(shots, { recursive: true });

let browser: Browser;
let world: World;
let admin: Api;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    processes: [{ name: 'Onboarding', requirements: ['basic-details', 'dbs-basic'] }],
    subjects: [{ key: 'sam', firstName: 'Sam', lastName: 'Reed' }],
    ops: true,
  });
  admin = await world.api('admin');
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

const HOUR = 3_600_000;

describe('reminders and expiry', () => {
  it('sets a cadence, reminds once the clock moves, expires and resends', async () => {
    const processId = world.processes.Onboarding;
    const { page } = await world.signedIn(browser, 'admin');
    await page.goto(`/processes/${processId}/configuration`);
    await settle(page);
    await page.getByRole('switch', { name: 'Send automatic reminders' }).check({ force: true });
    await page.getByLabel('Daily for the first (days)').fill('2');
    await page.getByLabel('Then every (days)').fill('7');
    await page.getByLabel('At most (reminders)').fill('4');
    await page.getByLabel('Invitation expires after (days)').fill('5');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await expect
      .poll(async () => await (await admin.api.get(`/api/processes/${processId}/`)).json())
      .toMatchObject({
        reminder_schedule: { daily_days: 2, then_every_days: 7, max_reminders: 4 },
        invitation_expiry_days: 5,
      });
    await page.reload();
    await settle(page);
    await lookAtWidths(page, shots, 'process-configuration');
    await lookLightAndDark(page, admin, shots, 'process-configuration');

    const caseId = await world.openCase('Onboarding', 'sam');
    const email = world.username('sam');
    const ops = await world.api('ops');
    const mails = async () =>
      (
        (await (await ops.api.get('/api/ops/outbox/', { params: { to: email } })).json()) as {
          results: { subject: string }[];
        }
      ).results.map((m) => m.subject);
    const due = async (afterMs: number) =>
      send(admin, 'post', '/api/test-fixtures/reminders-due/', {
        customer: world.customer.id,
        at: new Date(Date.now() + afterMs).toISOString(),
      });
    await expect.poll(mails, { timeout: 30_000 }).toHaveLength(1); // the invitation

    // a day and an hour on: one reminder, once
    expect(await due(25 * HOUR)).toEqual({ reminders: 1, expiries: 0 });
    expect(await due(25 * HOUR + 60_000)).toEqual({ reminders: 0, expiries: 0 });
    await expect.poll(mails, { timeout: 30_000 }).toHaveLength(2);
    expect((await mails())[0]).toMatch(/^Reminder: /);

    // a manual reminder within 24 hours of it is refused, with the reason
    const manual = await admin.api.post(`/api/cases/${caseId}/send-reminder/`, {
      data: {},
      headers: { 'X-CSRFToken': admin.csrf() },
    });
    expect(manual.status()).toBe(400);
    expect(await manual.json()).toEqual({ non_field_errors: [REMINDER_TOO_SOON] });

    // six days on: the invitation has expired; the case waits for the customer
    expect(await due(6 * 24 * HOUR)).toEqual({ reminders: 0, expiries: 1 });
    await page.goto(`/cases/${caseId}`);
    await page.getByRole('heading', { name: `Case #${caseId}`, level: 1 }).waitFor();
    const resend = page.getByRole('button', { name: 'Resend expired invitation' });
    await resend.waitFor();
    await settle(page);
    await lookAtWidths(page, shots, 'case-expired');
    await lookLightAndDark(page, admin, shots, 'case-expired');
    await resend.click();
    await page.getByText('Invitation sent').waitFor();
    await expect.poll(() => resend.count()).toBe(0);
    await expect.poll(mails, { timeout: 30_000 }).toHaveLength(3);
    const status = await (await admin.api.get(`/api/cases/${caseId}/invitation/`)).json();
    expect(status).toMatchObject({ is_expired: false, resends: 1 });
    await page.getByText('Awaiting subject').first().waitFor();

    // operations: the outbox and the jobs screen
    const opsPage = await world.signedIn(browser, 'ops');
    await opsPage.page.goto('/ops/jobs');
    await settle(opsPage.page);
    await lookAtWidths(opsPage.page, shots, 'ops-jobs');
    await lookLightAndDark(opsPage.page, ops, shots, 'ops-jobs');
    await opsPage.page.goto('/ops/outbox?channel=sms');
    await settle(opsPage.page);
    await lookAtWidths(opsPage.page, shots, 'ops-outbox-sms');
    await ops.api.dispose();
  }, 300_000);
});
