import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveConsents, newWorld, type World } from './fixtures';
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
// lists it by subject, filters by kind and by name, and exports it as CSV. A DVLA mandate renewed
// today ends 3 years on: the calendar's 3-year window shows it.

const shots = join(screenshotDir, 'expiry-calendar');
mkdirSync(shots, { recursive: true });

let browser: Browser;
let world: World;
let admin: Api;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    processes: [
      { name: 'Drivers', requirements: ['basic-details', 'dbs-basic'] },
      { name: 'Mandates', requirements: ['driver-data'] },
    ],
    subjects: [
      { key: 'sam', firstName: 'Sam', lastName: 'Reed' },
      { key: 'ada', firstName: 'Ada', lastName: 'Renewer' },
    ],
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

  it('shows a DVLA mandate renewed today, 3 years on, in its 3-year window', async () => {
    const caseId = await world.openCase('Mandates', 'ada');
    const ada = await world.api('ada');
    await giveConsents(ada, caseId);
    // the mandate moved to end in 20 days (a test fixture; the server's clock stays), renewed
    const moved = await send(admin, 'post', '/api/test-fixtures/dvla-mandates-due/', {
      customer: world.customer.id,
      days_left: 20,
    });
    expect(moved.consents).toBe(1);
    const due = (await (await ada.api.get('/api/s/dvla-reconsent/')).json()) as {
      results: { id: number }[];
    };
    const consent = due.results[0]?.id;
    expect(consent).toBeTruthy();
    const renewed = (await send(ada, 'post', '/api/s/dvla-reconsent/', { consent })) as {
      id: number;
      expires_at: string;
    };
    const endsOn = renewed.expires_at.slice(0, 10);
    expect(endsOn > new Date(Date.now() + 3 * 364 * 86_400_000).toISOString().slice(0, 10)).toBe(
      true,
    );

    const { page } = await world.signedIn(browser, 'admin');
    await page.goto('/expiry-calendar?search=renewer');
    await page.getByRole('heading', { name: 'Expiry calendar', level: 1 }).waitFor();
    await settle(page);
    // 90 days: the old date gone, the new one beyond
    await page.getByText('Nothing expires in this window.').waitFor();
    await page.getByRole('combobox', { name: 'Window', exact: true }).click();
    await page.getByRole('option', { name: 'Next 3 years', exact: true }).click();
    const row = page
      .getByRole('table', { name: 'What expires' })
      .getByRole('row', { name: /Ada Renewer/ });
    await row.getByText(`Consent ${renewed.id}`, { exact: true }).waitFor();
    await row.getByText('Driving licence check consent (DVLA mandate)', { exact: true }).waitFor();
    await page
      .getByRole('status')
      .getByText(/^1 item up to /)
      .waitFor();
    expect(new URL(page.url()).searchParams.get('days')).toBe('1096');
    await settle(page);
    await lookAtWidths(page, shots, 'calendar-3-years');

    const csv = await admin.api.get('/api/expiry-calendar/export/', {
      params: { search: 'renewer', days: 1096 },
    });
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`${endsOn},`);
    expect(lines[1]).toContain(`Consent ${renewed.id}`);
  }, 300_000);
});
