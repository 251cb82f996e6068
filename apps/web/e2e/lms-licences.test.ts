import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import {
  type Api,
  launch,
  lookAtWidths,
  place,
  reloadInScheme,
  send,
  setDark,
  settle,
} from './helpers';

// Licence groups and licences (issue 32): a council's administrator adds a licence group and a
// sub-group through the screens, then (a definition and two licences made through the API) lists
// the licences filtered by status, suspends the active one with a reason, sees it in the trail
// and reinstates it; finds the other's suspension on the register by name and date of birth,
// and starts a renewal of the first from its record with an HMRC tax check code. Every screen at
// 1280 and 360 px, light and dark, axe clean.

const shots = '/tmp/shots/lms-licences';
mkdirSync(shots, { recursive: true });

let browser: Browser;
let world: World;
let admin: Api;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    customerName: 'Riverside Council',
    subjects: [
      { key: 'daniel', firstName: 'Daniel', lastName: 'Okafor', dob: '1980-02-03' },
      { key: 'priya', firstName: 'Priya', lastName: 'Shah', dob: '1975-06-12' },
    ],
  });
  admin = await world.api('admin');
}, 300_000);
afterAll(async () => {
  if (admin) await setDark(admin, false);
  await world?.dispose();
  await browser?.close();
});

/** The screen light and dark (the profile's dark mode, reloaded), each at 1280 and 360 px. */
async function look(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await reloadInScheme(page, admin, scheme);
    await lookAtWidths(page, shots, `${name}-${scheme}`);
  }
  await setDark(admin, false);
  await page.reload();
  await settle(page);
}

const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').getByText(text, { exact: true }).first().waitFor();

/** Picks `option` in the select labelled `label` (a combobox, or a textbox when not searchable). */
async function choose(page: Page, label: string, option: string) {
  await page
    .getByRole('combobox', { name: label, exact: true })
    .or(page.getByRole('textbox', { name: label, exact: true }))
    .first()
    .click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('licence groups and licences', () => {
  it('adds a group and a sub-group, then suspends and reinstates a licence with reasons', async () => {
    const { page } = await world.signedIn(browser, 'admin');

    // The groups: none yet, then one added through its form.
    await page.goto('/licence-groups');
    await settle(page);
    await page.getByText('No licence groups yet').waitFor();
    await look(page, 'licence-groups-empty');
    await page.getByRole('link', { name: 'Add licence group' }).first().click();
    await page.waitForURL('**/licence-groups/add');
    await settle(page);
    await look(page, 'licence-group-add');
    await page.getByRole('button', { name: 'Add licence group' }).click();
    await page.getByRole('alert').getByText(/Name/).first().waitFor();
    await page.getByLabel('Name').fill('Taxi and private hire');
    await page
      .getByLabel('Description')
      .fill('Licences for hackney carriage and private hire drivers, operators and vehicles.');
    await page.getByLabel('Published').check();
    await page.getByRole('button', { name: 'Add licence group' }).click();
    await page.waitForURL(/\/licence-groups\/\d+$/);
    await toast(page, 'Successfully added licence group');
    const groupPath = place(page);
    const groupId = Number(groupPath.split('/').pop());
    await settle(page);
    await page.getByRole('heading', { name: 'Taxi and private hire', level: 1 }).waitFor();
    await look(page, 'licence-group');

    // Its details, edited.
    await page.getByRole('link', { name: 'Details', exact: true }).click();
    await page.waitForURL(`**${groupPath}/details`);
    await settle(page);
    await look(page, 'licence-group-details');

    // A sub-group, from the group's sub-groups tab.
    await page.getByRole('link', { name: 'Sub-groups', exact: true }).click();
    await page.waitForURL(`**${groupPath}/sub-groups`);
    await settle(page);
    await page.getByText('No sub-groups yet').waitFor();
    await look(page, 'licence-sub-groups-empty');
    await page.getByRole('link', { name: 'Add sub-group' }).first().click();
    await page.waitForURL(`**${groupPath}/sub-groups/add`);
    await settle(page);
    await look(page, 'licence-sub-group-add');
    await page.getByLabel('Name').fill('Hackney carriage driver');
    await page.getByLabel('Code').fill('hcd');
    await page.getByLabel('Published').check();
    await page.getByRole('button', { name: 'Add sub-group' }).click();
    await page.waitForURL(/\/sub-groups\/\d+$/);
    await toast(page, 'Successfully added sub-group');
    const subGroupId = Number(place(page).split('/').pop());
    await settle(page);
    expect(await page.getByLabel('Code').inputValue()).toBe('HCD');

    // A definition of the sub-group (the definitions' screens are their own journey) and two
    // licences: Daniel's active, Priya's suspended.
    const definition = await send(admin, 'post', '/api/lms/definitions/', {
      sub_group: subGroupId,
      name: 'Hackney carriage driver licence (3 years)',
      duration_years: 3,
      fee_pence: 15000,
      is_published: true,
    });
    const daniel = await send(admin, 'post', '/api/lms/licences/', {
      definition: definition.id,
      holder: world.subjects.daniel?.id,
      issue_date: '2026-01-05',
      conditions: 'Wheelchair accessible vehicle only.',
    });
    const priya = await send(admin, 'post', '/api/lms/licences/', {
      definition: definition.id,
      holder: world.subjects.priya?.id,
    });
    await send(admin, 'post', `/api/lms/licences/${priya.id}/suspend/`, {
      reason: 'Medical certificate expired.',
    });
    expect(daniel.number).toBe('HCD/2026/00001');

    await page.reload();
    await settle(page);
    await page.getByRole('link', { name: 'Hackney carriage driver licence (3 years)' }).waitFor();
    await look(page, 'licence-sub-group');
    await page.goto(`${groupPath}/sub-groups`);
    await settle(page);
    await page.getByRole('link', { name: 'Hackney carriage driver', exact: true }).waitFor();
    await look(page, 'licence-sub-groups');

    // The licences: both, then the active ones only (the filter in the address).
    await page.goto('/licences');
    await settle(page);
    await page.getByRole('button', { name: `Open licence ${daniel.number}` }).waitFor();
    await page.getByRole('button', { name: `Open licence ${priya.number}` }).waitFor();
    await look(page, 'licences');
    await choose(page, 'Status', 'Active');
    await page.waitForURL('**/licences?status=active');
    await expect
      .poll(() => page.getByRole('button', { name: `Open licence ${priya.number}` }).count())
      .toBe(0);
    await page.getByRole('button', { name: `Open licence ${daniel.number}` }).waitFor();
    await choose(page, 'Group', 'Taxi and private hire');
    await page.waitForURL(`**/licences?status=active&group=${groupId}`);
    await look(page, 'licences-active');

    // Daniel's licence beside the list: suspended with a reason.
    await page.getByRole('button', { name: `Open licence ${daniel.number}` }).click();
    const drawer = page.getByRole('dialog', { name: `Licence ${daniel.number}` });
    await drawer.getByText('Wheelchair accessible vehicle only.').waitFor();
    expect(place(page)).toBe(`/licences?status=active&group=${groupId}&licence=${daniel.id}`);
    await look(page, 'licence-active');
    await drawer.getByRole('button', { name: 'Suspend' }).click();
    const suspend = page.getByRole('dialog', { name: 'Suspend the licence?' });
    await suspend.getByRole('button', { name: 'Suspend' }).click();
    await suspend.getByText('Required').first().waitFor();
    await suspend.getByLabel('Reason').fill('Police report of an assault on a passenger.');
    await lookAtWidths(page, shots, 'licence-suspend-light');
    await suspend.getByRole('button', { name: 'Suspend' }).click();
    await toast(page, `Licence ${daniel.number} suspended`);
    await expect.poll(() => suspend.count()).toBe(0);
    const trail = drawer.getByTestId('licence-trail');
    await trail.getByText('Police report of an assault on a passenger.').waitFor();
    await trail.getByText('Suspended (Active → Suspended)').waitFor();
    expect(await drawer.getByTestId('licence-status').textContent()).toBe('Suspended');
    await look(page, 'licence-suspended');

    // Reinstated with its reason: active again, both steps in the trail.
    await drawer.getByRole('button', { name: 'Reinstate' }).click();
    const reinstate = page.getByRole('dialog', { name: 'Reinstate the licence?' });
    await reinstate.getByLabel('Reason').fill('Police took no further action.');
    await reinstate.getByRole('button', { name: 'Reinstate' }).click();
    await toast(page, `Licence ${daniel.number} reinstated`);
    await trail.getByText('Police took no further action.').waitFor();
    await trail.getByText('Reinstated (Suspended → Active)').waitFor();
    expect(await drawer.getByTestId('licence-status').textContent()).toBe('Active');
    await drawer.getByRole('button', { name: 'Suspend' }).waitFor();

    // Closed: the list as it was, its filters kept.
    await page.getByRole('button', { name: 'Close the licence' }).click();
    await page.waitForURL(`**/licences?status=active&group=${groupId}`);

    // The trail as the API keeps it: issue, suspend, reinstate, each with its reason.
    const saved = await (await admin.api.get(`/api/lms/licences/${daniel.id}/`)).json();
    expect(
      saved.events.map((e: { action: string; reason: string }) => [e.action, e.reason]),
    ).toEqual([
      ['issue', ''],
      ['suspend', 'Police report of an assault on a passenger.'],
      ['reinstate', 'Police took no further action.'],
    ]);

    // The register of refusals, suspensions and revocations: Priya's suspension found by her
    // name and date of birth (the search kept in the address, so it survives the reloads).
    await page.goto('/licences');
    await settle(page);
    const register = page.getByTestId('licence-register');
    await register.getByLabel('Name or licence number').fill('Shah');
    await register.getByLabel('Date of birth').fill('1975-06-12');
    await register.getByRole('button', { name: 'Search the register' }).click();
    await page.waitForURL('**/licences?register_q=Shah&register_dob=1975-06-12');
    const entries = register.getByTestId('register-entry');
    await entries.getByText('Medical certificate expired.').waitFor();
    expect(await entries.count()).toBe(1);
    expect(await entries.first().textContent()).toContain(priya.number);
    await look(page, 'licence-register');

    // A renewal from Daniel's record: refused while the licence type has no open renewal portal,
    // and for an expired tax check code; with a renewal portal and a valid code, the renewal
    // application opens on the portal's applications.
    await page.goto(`/licences?licence=${daniel.id}`);
    const holder = page.getByRole('dialog', { name: `Licence ${daniel.number}` });
    await holder.getByRole('button', { name: 'Start a renewal' }).click();
    const renew = page.getByRole('dialog', { name: 'Start a renewal?' });
    const code = renew.getByLabel(/^HMRC tax check code/);
    await code.fill('HMRC12345');
    await renew.getByRole('button', { name: 'Start the renewal' }).click();
    await renew.getByText('This licence type has no open renewal portal.').first().waitFor();
    await lookAtWidths(page, shots, 'licence-renew-light');
    const renewal = await send(
      admin,
      'post',
      `/api/lms/definitions/${definition.id}/application_portals/`,
      {
        title: 'Renew a hackney carriage driver licence',
        is_open: true,
        kind: 'renewal',
        fee_pence: 9000,
      },
    );
    await code.fill('E00000001');
    await renew.getByRole('button', { name: 'Start the renewal' }).click();
    await renew
      .getByText(/This tax check code has expired/)
      .first()
      .waitFor();
    await code.fill('HMRC12345');
    await renew.getByRole('button', { name: 'Start the renewal' }).click();
    await page.waitForURL(
      `**/definitions/${definition.id}/application_portals/${renewal.id}?application=*`,
    );
    const opened = await (await admin.api.get('/api/lms/applications/')).json();
    expect(
      opened.results.map((a: { kind: string; renews_licence: number | null }) => [
        a.kind,
        a.renews_licence,
      ]),
    ).toEqual([['renewal', daniel.id]]);
  });
});
