import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
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

// The expiry calendar (issue 33): a case's passport expires in 40 days; the customer's calendar
// lists it by subject, filters by kind and by name, and exports it as CSV.

const shots = join(screenshotDir, 'expiry-calendar');
mkdirSync(shots, { recursive: true });

let browser: Browser;
let world: World;
let admin: Api;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    processes: [{ name: 'Drivers', requirements: ['basic-details', 'dbs-basic'] }],
    subjects: [{ key: 'sam', firstName: 'Sam', lastName: 'Reed' }],
  });
  admin = await world.api('admin');
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

describe('the expiry calendar', () => {
  it("lists a subject's passport expiring in 40 days, filters and exports it", async () => {
    const caseId = await world.openCase('Drivers', 'sam');
    const expiry = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    await send(admin, 'post', '/api/case-passports/', {
      case: caseId,
      number: 'GB7654321',
      country: 'GBR',
      expiry_date: expiry,
      dob: '1985-12-10',
    });

    const { page } = await world.signedIn(browser, 'admin');
    await page.goto('/cases');
    await settle(page);
    await page.getByRole('link', { name: 'Expiry calendar' }).first().click();
    await page.getByRole('heading', { name: 'Expiry calendar', level: 1 }).waitFor();
    await settle(page);
    const table = page.getByRole('table', { name: 'What expires' });
    await table
      .getByRole('row', { name: /Sam Reed/ })
      .getByText('Passport')
      .waitFor();
    await table.getByText('…4321').waitFor();
    await lookAtWidths(page, shots, 'calendar');
    await lookLightAndDark(page, admin, shots, 'calendar');

    // filtered to driving licences: nothing; by the subject's name: Sam again
    await page.getByRole('combobox', { name: 'What', exact: true }).click();
    await page.getByRole('option', { name: 'Driving licence', exact: true }).click();
    await page.getByText('Nothing expires in this window.').waitFor();
    await page.goto('/expiry-calendar?search=reed');
    await table.getByRole('row', { name: /Sam Reed/ }).waitFor();

    const csv = await admin.api.get('/api/expiry-calendar/export/', { params: { search: 'reed' } });
    expect(csv.status()).toBe(200);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('Expires on,Days left,What,Subject,Email,Case,Reference');
    expect(lines[1]).toContain(`${expiry},`);
    expect(lines[1]).toContain(`Passport,Sam Reed,${world.username('sam')},${caseId},…4321`);
  }, 300_000);
});
