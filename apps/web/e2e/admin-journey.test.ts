import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import { type Api, launch, loginUi, lookAtWidths, newPage, send, settle } from './helpers';

// One administrator's journey through the screens (issue 30), continuous in one browser: the
// administrator invites a new colleague with a role (/users/add); the invitee accepts the
// invitation (its set-password link, read from the outbox) and signs in, and sees the cases of
// the whole organisation; the administrator puts them in a segment (/users/{id}/edit), after
// which they see only that segment's cases; the administrator deactivates them, and their open
// page is sent to sign in within one check-session poll (5 s). Names are unique per attempt.

const shots = '/tmp/shots/admin-journey';
mkdirSync(shots, { recursive: true });
const PASSWORD = 'admin-journey-e2e-2026';

let browser: Browser;
let world: World;
let admin: Api;
let ops: Api;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    ops: true,
    processes: [
      { name: 'Depot checks', requirements: ['basic-details', 'rtw'] },
      { name: 'Office checks', requirements: ['basic-details', 'rtw'] },
    ],
    subjects: [
      { key: 'dora', firstName: 'Dora', lastName: 'Depotson' },
      { key: 'olly', firstName: 'Olly', lastName: 'Officer' },
    ],
  });
  admin = await world.api('admin');
  ops = await world.api('ops');
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

/** The cases list as the page shows it: which of the two subjects' rows are there. */
async function casesSeen(page: Page): Promise<string[]> {
  await page.goto('/cases');
  await page.getByRole('heading', { name: 'Cases', level: 1 }).waitFor();
  await page.getByRole('row').filter({ hasText: 'Dora Depotson' }).waitFor();
  await settle(page);
  const shown: string[] = [];
  for (const name of ['Dora Depotson', 'Olly Officer']) {
    if ((await page.getByRole('row').filter({ hasText: name }).count()) > 0) shown.push(name);
  }
  return shown;
}

describe('an administrator manages a colleague from invitation to deactivation', () => {
  it('invites with a role, the invitee claims and signs in, is limited to a segment, then deactivated', async () => {
    const run = Date.now().toString(36);
    await world.openCase('Depot checks', 'dora');
    await world.openCase('Office checks', 'olly');
    // Two segments, each with its process (the segments' own screens are segments.test.ts's).
    const depot = await send(admin, 'post', '/api/segments/', {
      name: `Depot ${run}`,
      employer_name: 'Depot Ltd',
    });
    await send(admin, 'post', `/api/segments/${depot.id}/processes/`, {
      process: world.processes['Depot checks'],
    });
    const office = await send(admin, 'post', '/api/segments/', {
      name: `Office ${run}`,
      employer_name: 'Office Ltd',
    });
    await send(admin, 'post', `/api/segments/${office.id}/processes/`, {
      process: world.processes['Office checks'],
    });
    const roleName = `Case reader ${run}`;
    const role = await send(admin, 'post', '/api/roles/', {
      name: roleName,
      permissions: ['cases.view_case', 'cases.view_caseactivity', 'subjects.view_subject'],
    });

    // 1. The invitation, through /users/add, with the role.
    const { page } = await world.signedIn(browser, 'admin');
    const email = `jo-${run}@depot.test`;
    await page.goto('/users/add');
    await settle(page);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('First name').fill('Jo');
    await page.getByLabel('Last name').fill('Journey');
    await page.getByRole('combobox', { name: 'Roles', exact: true }).click();
    await page.getByRole('option', { name: roleName }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.waitForURL(/\/users\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByText('Invited').first().waitFor();
    expect(await (await admin.api.get(`/api/users/${id}/`)).json()).toMatchObject({
      email,
      status: 'invited',
      roles: [role.id],
      segments: [],
    });

    // 2. The invitee accepts: the invitation's link in the outbox, a password chosen.
    let link = '';
    await expect
      .poll(async () => {
        const box = await (await ops.api.get('/api/ops/outbox/', { params: { to: email } })).json();
        link =
          /https?:\/\/\S+\/auth\/set-password\?token=\S+/.exec(box.results?.[0]?.text)?.[0] ?? '';
        return link;
      })
      .toBeTruthy();
    const jo = await newPage(browser);
    const url = new URL(link);
    await jo.page.goto(`${url.pathname}${url.search}`);
    await jo.page.getByLabel(/^New password/).fill(PASSWORD);
    await jo.page.getByLabel(/^Confirm new password/).fill(PASSWORD);
    await jo.page.getByRole('button', { name: 'Set password', exact: true }).click();
    await jo.page.getByText('Your password is set.').waitFor();
    await loginUi(jo.page, email, PASSWORD);
    await jo.page.waitForURL('**/dashboard');
    // No segment yet: the whole organisation's cases.
    expect(await casesSeen(jo.page)).toEqual(['Dora Depotson', 'Olly Officer']);

    // The administrator sees them active, signed in.
    await page.goto(`/users/${id}`);
    await page.getByText('Active', { exact: true }).first().waitFor();
    expect(await page.getByText('Never signed in').count()).toBe(0);

    // 3. Into the Depot segment, through /users/{id}/edit.
    await page.goto(`/users/${id}/edit`);
    await settle(page);
    await page.getByRole('combobox', { name: 'Segments', exact: true }).click();
    await page.getByRole('option', { name: `Depot ${run}` }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(new RegExp(`/users/${id}$`));
    await page.getByRole('form', { name: 'Edit user' }).waitFor({ state: 'detached' });
    await page.getByText(`Depot ${run}`, { exact: true }).waitFor();
    expect((await (await admin.api.get(`/api/users/${id}/`)).json()).segments).toEqual([depot.id]);
    // Jo now sees the Depot segment's case only (their open session, no new sign-in).
    expect(await casesSeen(jo.page)).toEqual(['Dora Depotson']);
    await lookAtWidths(jo.page, shots, 'segment-limited-cases');

    // 4. Deactivated: Jo's open page goes to sign in within one poll.
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('button', { name: 'Reactivate' }).waitFor();
    const deactivatedAt = Date.now();
    await jo.page.waitForURL(/\/login/, { timeout: 7_000 });
    expect(Date.now() - deactivatedAt).toBeLessThan(7_000);
    await jo.page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    // the session is gone on the server too: the API answers Jo as signed out
    const check = await (await jo.page.request.get('/api/accounts/check-session/')).json();
    expect(check.authenticated).toBe(false);
    // and the password no longer signs in
    await loginUi(jo.page, email, PASSWORD);
    await jo.page.getByText('Invalid login details', { exact: true }).waitFor();
    expect(new URL(jo.page.url()).pathname).toBe('/login');
    await jo.context.close();
  }, 300_000);
});
