import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import { type Api, launch, lookAtWidths, screenshotDir, send, settle } from './helpers';

// A council grants a licence application and refuses another (issue 32): a council of its own
// publishes a private hire driver licence (sub-group code PHD) with a portal and a fee; two
// applicants apply through the API, the council records both fees, and the test-only fixture
// POST /api/test-fixtures/lms-application-checks/ (apps/server lms.e2e.ts) completes Lee's
// checks. The licensing officer opens Lee's application from the portal's applications, grants it
// with a condition, and the licences list shows the new licence numbered in the council's format
// (PHD/{year}/00001); later it is suspended with a reason, and Lee's next application shows the
// suspension from the register (found on /licences by the licence number too); Ravi's
// application, its checks still running, is refused with a reason.

const dir = join(screenshotDir, 'lms-grant');
let browser: Browser;
let world: World;
let admin: Api;

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  browser = await launch();
  world = await newWorld({
    customerName: 'Eastbrook Council',
    subjects: [
      { key: 'lee', firstName: 'Lee', lastName: 'Applicant', dob: '1990-05-20' },
      { key: 'ravi', firstName: 'Ravi', lastName: 'Kumar', dob: '1982-11-09' },
    ],
  });
  admin = await world.api('admin');
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').getByText(text, { exact: true }).first().waitFor();

/** Applies as `key` on the portal (the tax responsibilities confirmed); the application's id. */
/** `key` applies on `portal`: a newcomer confirms their tax responsibilities (the default). */
async function apply(
  key: string,
  portal: number,
  body: object = { tax_responsibilities_confirmed: true },
): Promise<number> {
  const out = await send(
    await world.api(key),
    'post',
    `/api/lms/s/application-portals/${portal}/apply/`,
    body,
  );
  return Number(out.application_id);
}

describe('the council decides an application', () => {
  it('grants one ready to grant, which shows on the licences list, and refuses another with a reason', async () => {
    const group = await send(admin, 'post', '/api/lms/licence-groups/', {
      name: 'Taxi and private hire',
      is_published: true,
    });
    const subGroup = await send(admin, 'post', '/api/lms/licence-sub-groups/', {
      group: group.id,
      name: 'Private hire driver',
      code: 'PHD',
      is_published: true,
    });
    const definition = await send(admin, 'post', '/api/lms/definitions/', {
      sub_group: subGroup.id,
      name: 'Private hire driver licence (3 years)',
      duration_years: 3,
      fee_pence: 22000,
      requirements: [{ activity_type: 'basic-details' }, { activity_type: 'dbs-enhanced' }],
      is_published: true,
    });
    const portal = await send(
      admin,
      'post',
      `/api/lms/definitions/${definition.id}/application_portals/`,
      { title: 'Apply for a private hire driver licence', is_open: true, fee_pence: 22000 },
    );
    const lee = await apply('lee', portal.id);
    const ravi = await apply('ravi', portal.id);
    for (const id of [lee, ravi]) {
      const paid = await send(admin, 'post', `/api/lms/applications/${id}/record-payment/`, {
        note: 'Paid at the council counter.',
      });
      expect(paid.state).toBe('in_progress');
    }
    const done = await send(admin, 'post', '/api/test-fixtures/lms-application-checks/', {
      application_id: lee,
    });
    expect(done.completed).toBe(2);

    // The portal's applications: Lee's opened beside the list, its checks done.
    const { page } = await world.signedIn(browser, 'admin');
    const portalPath = `/definitions/${definition.id}/application_portals/${portal.id}`;
    await page.goto(portalPath);
    await settle(page);
    await page.getByRole('link', { name: 'Lee Applicant', exact: true }).click();
    await page.waitForURL(`**${portalPath}?application=${lee}`);
    const panel = page.getByTestId('application-panel');
    await panel.getByRole('heading', { name: 'Lee Applicant' }).waitFor();
    await panel.getByText('2 of 2 checks').waitFor();
    expect(await panel.locator('[data-state]').first().getAttribute('data-state')).toBe(
      'in_progress',
    );

    // Granted with a condition: the licence numbered in the council's format.
    await panel.getByRole('button', { name: 'Grant', exact: true }).click();
    const grant = page.getByRole('dialog', { name: 'Grant the licence?' });
    await grant.getByLabel('Conditions (optional)').fill('Saloon vehicles only.');
    await grant.getByRole('button', { name: 'Grant', exact: true }).click();
    await toast(page, 'Licence granted');
    await expect.poll(() => grant.count()).toBe(0);
    const saved = await (await admin.api.get(`/api/lms/applications/${lee}/`)).json();
    expect(saved.state).toBe('granted');
    const licence = await (await admin.api.get(`/api/lms/licences/${saved.licence_id}/`)).json();
    const number = `PHD/${String(licence.issue_date).slice(0, 4)}/00001`;
    expect(saved.licence_number).toBe(number);
    expect(licence).toMatchObject({
      number,
      holder_name: 'Lee Applicant',
      conditions: 'Saloon vehicles only.',
    });
    await panel.getByText(new RegExp(`^Licence ${number} issued on `)).waitFor();
    expect(await panel.getByRole('button', { name: 'Grant', exact: true }).count()).toBe(0);
    await lookAtWidths(page, dir, 'application-granted');

    // The licences list: the new licence, its number and holder.
    await page.goto('/licences');
    await settle(page);
    const open = page.getByRole('button', { name: `Open licence ${number}` });
    await open.waitFor();
    await open.click();
    const drawer = page.getByRole('dialog', { name: `Licence ${number}` });
    await drawer.getByText('Saloon vehicles only.').waitFor();
    await drawer.getByText('Lee Applicant').first().waitFor();
    expect(await drawer.getByTestId('licence-status').textContent()).toBe('Active');
    await lookAtWidths(page, dir, 'licence-granted');

    // Later, Lee's licence suspended with a reason; his next application shows the suspension
    // from the register to the licensing officer, and the register finds it by his licence number.
    await drawer.getByRole('button', { name: 'Suspend' }).click();
    const suspend = page.getByRole('dialog', { name: 'Suspend the licence?' });
    await suspend.getByLabel('Reason').fill('Complaint of overcharging under investigation.');
    await suspend.getByRole('button', { name: 'Suspend' }).click();
    await toast(page, `Licence ${number} suspended`);
    await expect.poll(() => drawer.getByTestId('licence-status').textContent()).toBe('Suspended');
    // still holding this type of licence here, Lee gives a tax check code (HMRC's rule)
    const again = await apply('lee', portal.id, { tax_check_code: 'HMRC12345' });
    await page.goto(`${portalPath}?application=${again}`);
    await settle(page);
    await panel.getByRole('heading', { name: 'Lee Applicant' }).waitFor();
    const matches = panel.getByTestId('register-matches');
    await matches
      .getByText('Complaint of overcharging under investigation.', { exact: false })
      .waitFor();
    expect(await matches.textContent()).toContain(
      `Suspension · Private hire driver licence (3 years) · ${number}`,
    );
    await lookAtWidths(page, dir, 'application-register-suspension');
    await page.goto('/licences');
    await settle(page);
    const register = page.getByTestId('licence-register');
    await register.getByLabel('Name or licence number').fill(number);
    await register.getByRole('button', { name: 'Search the register' }).click();
    await register
      .getByTestId('register-entry')
      .getByText('Complaint of overcharging under investigation.')
      .waitFor();
    expect(await register.getByTestId('register-entry').count()).toBe(1);

    // Ravi's application, its checks still running: refused with a reason.
    await page.goto(`${portalPath}?application=${ravi}`);
    await settle(page);
    await panel.getByRole('heading', { name: 'Ravi Kumar' }).waitFor();
    await panel.getByText('0 of 2 checks').waitFor();
    await panel.getByRole('button', { name: 'Refuse', exact: true }).click();
    const refuse = page.getByRole('dialog', { name: 'Refuse the application?' });
    await refuse.getByRole('button', { name: 'Refuse', exact: true }).click();
    await refuse
      .getByText(/required/i)
      .first()
      .waitFor();
    await refuse.getByLabel(/^Reason/).fill('Not a fit and proper person: undisclosed conviction.');
    await refuse.getByRole('button', { name: 'Refuse', exact: true }).click();
    await toast(page, 'Application refused');
    await expect.poll(() => refuse.count()).toBe(0);
    await panel.getByText('Not a fit and proper person: undisclosed conviction.').first().waitFor();
    expect(await panel.locator('[data-state]').first().getAttribute('data-state')).toBe('refused');
    const refused = await (await admin.api.get(`/api/lms/applications/${ravi}/`)).json();
    expect(refused).toMatchObject({
      state: 'refused',
      decision_reason: 'Not a fit and proper person: undisclosed conviction.',
      licence_id: null,
    });
    await lookAtWidths(page, dir, 'application-refused');
  });
});
