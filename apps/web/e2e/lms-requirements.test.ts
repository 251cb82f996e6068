import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import {
  type Api,
  apiAs,
  axeClean,
  DESKTOP,
  launch,
  lookLightAndDark,
  PHONE,
  screenshotDir,
  send,
  settle,
  signedIn,
  steady,
  writeScreenshots,
} from './helpers';

// A licence's check settings (issue 32): the licensing team opens a definition's requirements,
// edits the enhanced DBS check's settings (workforce, barred lists, purpose) and the driver data
// check's, and finds them kept after a reload; a setting 'Other' asks for its purpose first.
// At 390 px and 1280 px (screenshots in e2e/screenshots/lms-requirements-*), light and dark,
// axe clean.

const shots = '/tmp/shots/lms-requirements';

let browser: Browser;
let world: World;
let admin: Api;
let definitionId = 0;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({ customerName: 'Westmoor Council' });
  admin = await world.api('admin');
  const group = await send(admin, 'post', '/api/lms/licence-groups/', {
    name: 'Taxi and private hire',
  });
  const sub = await send(admin, 'post', '/api/lms/licence-sub-groups/', {
    group: group.id,
    name: 'Hackney carriage driver',
    code: 'HCD',
  });
  const def = await send(admin, 'post', '/api/lms/definitions/', {
    sub_group: sub.id,
    name: 'Hackney carriage driver (3 years)',
    duration_years: 3,
    fee_pence: 27500,
    requirements: [
      { activity_type: 'dbs-enhanced' },
      { activity_type: 'driver-data' },
      { activity_type: 'rtw' },
    ],
  });
  definitionId = def.id;
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

/** The screen at 390 px and 1280 px, axe clean at each, screenshots to look at. */
async function look(page: Page, name: string) {
  mkdirSync(screenshotDir, { recursive: true });
  for (const [size, viewport] of [
    ['1280', { ...DESKTOP, width: 1280 }],
    ['390', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await steady(page);
    expect(await axeClean(page), `${name} at ${size}`).toEqual([]);
    if (writeScreenshots) {
      await page.screenshot({
        path: join(screenshotDir, `lms-requirements-${name}-${size}.png`),
        fullPage: true,
      });
    }
  }
  await page.setViewportSize(DESKTOP);
}

describe('a licence check settings', () => {
  it('a council officer edits the enhanced DBS and driver data settings and finds them kept', async () => {
    const { page } = await world.signedIn(browser, 'admin');
    await page.goto(`/definitions/${definitionId}/requirements`);
    await settle(page);
    const dbs = page.getByTestId('check-settings-dbs-enhanced');
    await dbs.getByText('No settings chosen: the product defaults apply.').waitFor();
    await page.getByTestId('check-settings-rtw').getByText('This check has no settings.').waitFor();
    await look(page, 'list');

    await dbs.getByRole('button', { name: 'Edit settings: Enhanced DBS check' }).click();
    const form = page.getByRole('form', { name: 'Settings: Enhanced DBS check' });
    await form.waitFor();
    // 44 px targets: the edit form's buttons and inputs
    for (const target of [
      form.getByRole('button', { name: 'Save settings' }),
      form.getByRole('button', { name: 'Cancel' }),
      form.getByLabel('Workforce'),
    ]) {
      const box = await target.boundingBox();
      expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
    }
    // 'Other' asks for its purpose before anything is sent
    await form.getByLabel('Purpose', { exact: true }).selectOption('other');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => form.getByText('Required').count()).toBeGreaterThan(0);
    await look(page, 'edit-error');
    await form.getByLabel('Purpose', { exact: true }).selectOption('licence');
    await form.getByLabel('Employment sector').selectOption('taxi-private-hire');
    await form.getByLabel('Position').fill('Hackney carriage driver');
    await form.getByLabel('Workforce').selectOption('CA');
    await form.getByLabel('Working with vulnerable adults (adult barred list)').check();
    await form.getByLabel('Working with children (children barred list)').check();
    await look(page, 'edit');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await dbs.getByText('Settings saved.').waitFor();

    const driver = page.getByTestId('check-settings-driver-data');
    await driver.getByRole('button', { name: 'Edit settings: Driver data' }).click();
    const driverForm = page.getByRole('form', { name: 'Settings: Driver data' });
    await driverForm.getByLabel('Include CPC').check();
    await driverForm.getByRole('button', { name: 'Save settings' }).click();
    await driver.getByText('Settings saved.').waitFor();

    // kept: after a reload, in words, and in the API
    await page.reload();
    await settle(page);
    await dbs
      .getByText(
        'Purpose: Licence application · Employment sector: Taxi and private hire · Position: Hackney carriage driver · Workforce: Child and Adult · Working with vulnerable adults (adult barred list) · Working with children (children barred list)',
      )
      .waitFor();
    await driver.getByText('Include CPC').waitFor();
    const def = await admin.api.get(`/api/lms/definitions/${definitionId}/`);
    expect(def.status()).toBe(200);
    const body = await def.json();
    const configOf = (kind: string) =>
      body.requirements.find((r: { activity_type: string }) => r.activity_type === kind)?.config;
    expect(configOf('dbs-enhanced')).toMatchObject({
      purpose: 'licence',
      workforce: 'CA',
      adult_barred_list: true,
      child_barred_list: true,
    });
    expect(configOf('driver-data')).toMatchObject({ include_cpc: true });
    await look(page, 'saved');
    await lookLightAndDark(page, admin, shots, 'saved');
  });

  it("a licence whose holder's certificate reports new information says so (the demo's Daniel Okafor)", async () => {
    const northgate = await apiAs('admin@northgate.test');
    const list = await (
      await northgate.api.get('/api/lms/licences/?q=okafor&status=active')
    ).json();
    const daniel = list.results[0];
    expect(daniel, "the demo's active licence of Daniel Okafor").toBeDefined();
    // the demo's six-monthly check is answered by the simulator once the server's jobs have run
    await expect
      .poll(
        async () =>
          (await (await northgate.api.get(`/api/lms/licences/${daniel.id}/`)).json()).update_service
            ?.new_information,
        { timeout: 60_000 },
      )
      .toBe(true);
    const { page } = await signedIn(browser, 'admin@northgate.test');
    await page.goto(`/licences?licence=${daniel.id}`);
    await settle(page);
    const section = page.getByTestId('licence-update-service');
    await section.getByText('New information', { exact: true }).waitFor();
    await section.getByRole('link', { name: 'Open the case of the check' }).waitFor();
    await look(page, 'licence-update-service');
  });
});
