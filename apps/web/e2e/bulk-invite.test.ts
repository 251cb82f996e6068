import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import {
  type Api,
  axeClean,
  launch,
  lookAtWidths,
  lookLightAndDark,
  screenshotDir,
  send,
  setDark,
  settle,
} from './helpers';

// Bulk invite (issue 33): a customer uploads a CSV of four people, one of them with a bad row,
// sees the preview with the row's errors, invites the three good ones (a case each, under one
// process), the invitations reach the outbox, and the clock moved a day on reminds each once.

const shots = join(screenshotDir, 'bulk-invite');
mkdirSync(shots, { recursive: true });

let browser: Browser;
let world: World;
let admin: Api;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    processes: [{ name: 'Warehouse staff', requirements: ['basic-details', 'dbs-basic'] }],
    ops: true,
  });
  admin = await world.api('admin');
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

const HOUR = 3_600_000;

describe('bulk invite from a CSV', () => {
  it('previews a file with one bad row, invites the three good ones, reminds them later', async () => {
    const processId = world.processes['Warehouse staff'] ?? 0;
    // the process reminds daily (set through the API: the cadence screen has its own test)
    await send(admin, 'patch', `/api/processes/${processId}/`, {
      reminder_schedule: { daily_days: 3, then_every_days: 7, max_reminders: 3 },
    });
    const tag = `w${world.customer.id}`;
    const emails = ['ada', 'ben', 'cara'].map((n) => `${n}.${tag}@bulk.example.test`);
    const csv = [
      'First name,Last name,Email,Mobile',
      `Ada,Lovelace,${emails[0]},07911 123456`,
      `Ben,Okafor,${emails[1]},`,
      'Dev,,not-an-email,',
      `Cara,Nash,${emails[2]},`,
    ].join('\r\n');

    const { page } = await world.signedIn(browser, 'admin');
    const fillForm = async (p: Page) => {
      await p.goto('/cases');
      await settle(p);
      await p.getByRole('link', { name: 'Bulk invite' }).click();
      await p.getByRole('heading', { name: 'Bulk invite', level: 1 }).waitFor();
      await settle(p);
      await p.getByRole('combobox', { name: 'Process', exact: true }).click();
      await p.getByRole('option', { name: 'Warehouse staff' }).click();
      await p.locator('input[type=file]').setInputFiles({
        name: 'people.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv),
      });
      await p.getByRole('button', { name: 'Check the file' }).click();
      await p.getByText('3 people ready to invite, 1 row with errors (left out).').waitFor();
    };

    // the preview, in dark then light (the preview is the page's state: looked at as it is)
    await setDark(admin, true);
    await fillForm(page);
    expect(await axeClean(page), 'preview dark').toEqual([]);
    await page.screenshot({ path: join(shots, 'preview-1280-dark.png'), fullPage: true });
    await setDark(admin, false);
    await fillForm(page);
    const bad = page.locator('tr[data-row="4"]');
    await bad.getByText('Not invited').waitFor();
    await bad.getByText(/^Last name: /).waitFor();
    await bad.getByText(/^Email: /).waitFor();
    expect(await page.locator('tr[data-row="2"]').getByText('New subject').count()).toBe(1);
    await lookAtWidths(page, shots, 'preview');

    await page.getByRole('button', { name: 'Invite 3 people' }).click();
    await page.getByText('3 cases opened').waitFor();
    await page.getByText('Rows not invited').waitFor();
    await lookAtWidths(page, shots, 'result');

    const list = (await (
      await admin.api.get('/api/cases/', { params: { process: processId, page_size: 10 } })
    ).json()) as { count: number };
    expect(list.count).toBe(3);

    const ops = await world.api('ops');
    const mailsTo = async (to: string) =>
      (
        (await (await ops.api.get('/api/ops/outbox/', { params: { to } })).json()) as {
          results: { subject: string }[];
        }
      ).results.map((m) => m.subject);
    for (const to of emails)
      await expect.poll(() => mailsTo(to), { timeout: 30_000 }).toHaveLength(1);

    // a day and an hour on, each of the three is reminded once
    const due = async (afterMs: number) =>
      send(admin, 'post', '/api/test-fixtures/reminders-due/', {
        customer: world.customer.id,
        at: new Date(Date.now() + afterMs).toISOString(),
      });
    expect(await due(25 * HOUR)).toEqual({ reminders: 3, expiries: 0 });
    expect(await due(25 * HOUR + 60_000)).toEqual({ reminders: 0, expiries: 0 });
    for (const to of emails) {
      await expect.poll(() => mailsTo(to), { timeout: 30_000 }).toHaveLength(2);
      expect((await mailsTo(to))[0]).toMatch(/^Reminder: /);
    }
    await ops.api.dispose();

    // the empty form, light and dark
    await page.goto('/cases/bulk-invite');
    await settle(page);
    await lookLightAndDark(page, admin, shots, 'form');
  }, 300_000);
});
