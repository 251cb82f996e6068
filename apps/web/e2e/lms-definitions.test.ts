import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import { type Api, launch, lookAtWidths, lookLightAndDark, send, settle } from './helpers';

// The council's licence definitions (issue 32): the licensing team adds a definition under a
// sub-group with its checks, documents, declarations and fee, opens an application portal and
// sees its public link; a person applies on it, the council records the fee paid at its counter
// and refuses with a reason, and the person's next application shows the refusal on the
// register. Every screen at 1280 px and 360 px, light and dark, axe clean.

const shots = '/tmp/shots/lms-definitions';

let browser: Browser;
let world: World;
let admin: Api;
let subGroupId = 0;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    customerName: 'Eastbridge Council',
    subjects: [{ key: 'dan', firstName: 'Dan', lastName: 'Drayton', dob: '1984-03-09' }],
  });
  admin = await world.api('admin');
  const group = await send(admin, 'post', '/api/lms/licence-groups/', {
    name: 'Taxi and private hire',
    is_published: true,
  });
  const sub = await send(admin, 'post', '/api/lms/licence-sub-groups/', {
    group: group.id,
    name: 'Private hire driver',
    code: 'PHD',
    is_published: true,
  });
  subGroupId = sub.id;
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

/** The screen at both widths and in both schemes (axe clean each time). */
async function look(page: Page, name: string) {
  await lookAtWidths(page, shots, name);
  await lookLightAndDark(page, admin, shots, name);
}

/** `dan` applies on the portal (a new applicant: confirms their tax responsibilities). */
async function apply(portalId: number): Promise<number> {
  const dan = await world.api('dan');
  const out = await send(dan, 'post', `/api/lms/s/application-portals/${portalId}/apply/`, {
    tax_responsibilities_confirmed: true,
  });
  return out.application_id;
}

describe('licence definitions', () => {
  it('adds a definition with its requirements and fee, a portal with its link, and decides an application', async () => {
    const { page } = await world.signedIn(browser, 'admin');
    await page.goto('/definitions');
    await settle(page);
    await look(page, 'definitions-empty');

    await page.getByRole('link', { name: 'Add definition' }).first().click();
    await page.getByRole('heading', { name: 'Add licence definition' }).waitFor();
    // Looked at first: looking light and dark reloads the page (the form starts again).
    await look(page, 'definition-add');
    // The browser's rules first: nothing chosen, nothing sent.
    await page.getByRole('button', { name: 'Add definition' }).click();
    await expect.poll(() => page.getByText('Choose the sub-group.').count()).toBeGreaterThan(0);
    await page.getByRole('combobox', { name: 'Sub-group' }).click();
    await page.getByRole('option', { name: 'Taxi and private hire › Private hire driver' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Private hire driver licence (3 years)');
    await page.getByRole('textbox', { name: 'Duration in years' }).fill('3');
    await page.getByRole('textbox', { name: 'Fee' }).fill('260');
    await page.getByRole('checkbox', { name: 'Enhanced DBS check' }).check();
    await page.getByRole('checkbox', { name: 'Driver data' }).check();
    await page.getByRole('checkbox', { name: 'Right to work' }).check();
    await page.getByRole('button', { name: 'Add document' }).click();
    await page.getByRole('textbox', { name: 'Document 1' }).fill('Group 2 medical certificate');
    await page.getByRole('button', { name: 'Add declaration' }).click();
    await page
      .getByRole('textbox', { name: 'Declaration 1' })
      .fill("I have read the council's policy on relevant convictions.");
    await page.getByRole('checkbox', { name: 'Published' }).check();
    await page.getByRole('button', { name: 'Add definition' }).click();
    await page.waitForURL(/\/definitions\/\d+$/);
    const definitionId = Number(new URL(page.url()).pathname.split('/').pop());
    await settle(page);
    await expect.poll(() => page.getByText('£260.00').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText('3 years').count()).toBeGreaterThan(0);
    await page.getByText('Group 2 medical certificate').waitFor();
    const saved = await (await admin.api.get(`/api/lms/definitions/${definitionId}/`)).json();
    expect(saved).toMatchObject({
      sub_group: subGroupId,
      fee_pence: 26_000,
      duration_years: 3,
      documents: ['Group 2 medical certificate'],
      is_published: true,
    });
    expect(saved.requirements.map((r: { activity_type: string }) => r.activity_type)).toEqual([
      'dbs-enhanced',
      'driver-data',
      'rtw',
    ]);
    await look(page, 'definition');

    await page.goto(`/definitions/${definitionId}/details`);
    await settle(page);
    await look(page, 'definition-details');
    await page.goto(`/definitions/${definitionId}/requirements`);
    await settle(page);
    await look(page, 'definition-requirements');
    await page.goto('/definitions');
    await settle(page);
    await page.getByRole('link', { name: 'Private hire driver licence (3 years)' }).waitFor();
    await look(page, 'definitions');

    // An open portal for new applicants, at the definition's fee.
    await page.goto(`/definitions/${definitionId}/application-portals`);
    await settle(page);
    await look(page, 'definition-application-portals-empty');
    await page.getByRole('link', { name: 'Add portal' }).first().click();
    await page.getByRole('heading', { name: 'Add application portal' }).waitFor();
    await look(page, 'definition-application-portal-add');
    await page.getByRole('textbox', { name: 'Title' }).fill('New private hire drivers');
    await page
      .getByRole('textbox', { name: 'Introduction' })
      .fill('For new drivers working for an Eastbridge private hire operator.');
    await page.getByRole('button', { name: 'Add portal' }).click();
    await page.waitForURL(/\/application_portals\/\d+$/);
    const portalId = Number(new URL(page.url()).pathname.split('/').pop());
    await settle(page);
    const link = page.getByTestId('portal-public-link');
    await expect
      .poll(() => link.textContent())
      .toMatch(new RegExp(`/application-portals/${portalId}$`));
    await page.getByRole('button', { name: 'Copy the public link' }).waitFor();
    await page.getByText('No applications yet').waitFor();
    await look(page, 'definition-application-portal');

    // A person applies; the fee is taken at the council's counter; the council refuses.
    const first = await apply(portalId);
    await page.goto(
      `/definitions/${definitionId}/application_portals/${portalId}?application=${first}`,
    );
    const panel = page.getByTestId('application-panel');
    await panel.getByRole('heading', { name: 'Dan Drayton' }).waitFor();
    await panel.getByText('Awaiting payment', { exact: true }).waitFor();
    await panel.getByRole('button', { name: 'Record payment' }).click();
    const pay = page.getByRole('dialog', { name: 'Record the fee as paid?' });
    await pay.getByRole('textbox', { name: /Note/ }).fill('Receipt 4471 at the counter');
    await pay.getByRole('button', { name: 'Record payment' }).click();
    await panel.getByText('In progress', { exact: true }).first().waitFor();
    await expect.poll(() => panel.getByText(/of \d+ checks/).count()).toBeGreaterThan(0);
    await settle(page);
    await look(page, 'application-in-progress');
    // A grant waits for every check: the API's refusal stays in the dialog.
    await panel.getByRole('button', { name: 'Grant' }).click();
    const grant = page.getByRole('dialog', { name: 'Grant the licence?' });
    await grant.getByRole('button', { name: 'Grant' }).click();
    await grant.getByText(/cannot be granted until every check is complete/).waitFor();
    await grant.getByRole('button', { name: 'Cancel' }).click();
    // A refusal needs its reason.
    await panel.getByRole('button', { name: 'Refuse' }).click();
    const refuse = page.getByRole('dialog', { name: 'Refuse the application?' });
    await refuse.getByRole('button', { name: 'Refuse' }).click();
    await refuse.getByText('Required').waitFor();
    await refuse
      .getByRole('textbox', { name: /Reason/ })
      .fill('A conviction within the period of the council’s policy.');
    await refuse.getByRole('button', { name: 'Refuse' }).click();
    await panel.getByText('Refused', { exact: true }).first().waitFor();
    await expect.poll(() => panel.getByRole('button', { name: 'Grant' }).count()).toBe(0);

    // Their next application shows the refusal on the register.
    const second = await apply(portalId);
    await page.goto(
      `/definitions/${definitionId}/application_portals/${portalId}?application=${second}`,
    );
    const matches = page.getByTestId('register-matches');
    await matches.waitFor();
    await matches.getByText(/A conviction within the period/).waitFor();
    await settle(page);
    await look(page, 'application-register-match');
  });
});
