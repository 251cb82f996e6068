import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import {
  type Api,
  apiAs,
  launch,
  loginUi,
  lookAtWidths,
  newPage,
  reloadInScheme,
  send,
  setDark,
} from './helpers';

// The segment journey of issue 30: an administrator invites a user with a custom role and
// limits them to one segment; the user claims the account (the invitation's set-password link),
// signs in and sees only that segment's cases in /cases; a case of the other segment opened by
// its address is not shown. The limited /cases at 360 and 1280 px, light and dark.

const shots = '/tmp/shots/segments-web';
mkdirSync(shots, { recursive: true });
const PASSWORD = 'north-site-viewer-2026';

let browser: Browser;
let world: World;
let admin: Api;
let ops: Api;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    ops: true,
    processes: [
      { name: 'North checks', requirements: ['basic-details', 'rtw'] },
      { name: 'South checks', requirements: ['basic-details', 'rtw'] },
    ],
    subjects: [
      { key: 'nina', firstName: 'Nina', lastName: 'Northcote' },
      { key: 'sam', firstName: 'Sam', lastName: 'Southgate' },
    ],
  });
  admin = await world.api('admin');
  ops = await world.api('ops');
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

/** A segment made through the API with its process assigned; its id. */
async function segmentWith(name: string, process: string): Promise<number> {
  const made = await send(admin, 'post', '/api/segments/', { name, employer_name: `${name} Ltd` });
  await send(admin, 'post', `/api/segments/${made.id}/processes/`, {
    process: world.processes[process],
  });
  return Number(made.id);
}

/** A custom role of the organisation through POST /api/roles/. */
async function customRole(name: string, permissions: string[]): Promise<{ id: number }> {
  const res = await admin.api.post('/api/roles/', {
    data: { name, permissions },
    headers: { 'X-CSRFToken': admin.csrf() },
  });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

describe('segment access', () => {
  it("a user limited to one segment sees only that segment's cases", async () => {
    const northCase = await world.openCase('North checks', 'nina');
    const southCase = await world.openCase('South checks', 'sam');
    const north = await segmentWith('North site', 'North checks');
    await segmentWith('South site', 'South checks');

    // A custom role: cases and subjects seen, nothing changed.
    const role = await customRole('Site viewer', [
      'cases.view_case',
      'cases.view_caseactivity',
      'subjects.view_subject',
      'segments.view_segment',
    ]);

    // The invitation, then the user added to North site through its screen.
    const email = `nell-${Date.now()}@north.test`;
    const invited = await send(admin, 'post', '/api/users/', {
      email,
      first_name: 'Nell',
      last_name: 'Norris',
      roles: [role.id],
    });
    const { page } = await world.signedIn(browser, 'admin');
    await page.goto(`/segments/${north}/users`);
    await page.getByRole('combobox', { name: 'User of your organisation' }).fill('Nell');
    await page.getByRole('option', { name: /Nell Norris/ }).click();
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByRole('button', { name: 'Remove Nell Norris' }).waitFor();
    const members = await (await admin.api.get(`/api/segments/${north}/users/`)).json();
    expect(members.results.map((u: { id: number }) => u.id)).toEqual([invited.id]);

    // The claim: the invitation's link in the outbox, a password chosen.
    let link = '';
    await expect
      .poll(async () => {
        const box = await (await ops.api.get('/api/ops/outbox/', { params: { to: email } })).json();
        link =
          /https?:\/\/\S+\/auth\/set-password\?token=\S+/.exec(box.results?.[0]?.text)?.[0] ?? '';
        return link;
      })
      .toBeTruthy();
    const user = await newPage(browser);
    const url = new URL(link);
    await user.page.goto(`${url.pathname}${url.search}`);
    await user.page.getByLabel(/^New password/).fill(PASSWORD);
    await user.page.getByLabel(/^Confirm new password/).fill(PASSWORD);
    await user.page.getByRole('button', { name: 'Set password', exact: true }).click();
    await user.page.getByText('Your password is set.').waitFor();

    // Signed in: only North's case.
    await loginUi(user.page, email, PASSWORD);
    await user.page.waitForURL('**/dashboard');
    await user.page.goto('/cases');
    // the row of Nina's case (its link is the case number)
    await user.page.getByRole('row').filter({ hasText: 'Nina Northcote' }).waitFor();
    await user.page.waitForLoadState('networkidle');
    expect(await user.page.getByText(/Southgate/).count()).toBe(0);
    // light and dark (the user's own profile setting), then light again
    const nell = await apiAs(email, 'localhost', PASSWORD);
    for (const scheme of ['light', 'dark'] as const) {
      await reloadInScheme(user.page, nell, scheme);
      await user.page.getByRole('row').filter({ hasText: 'Nina Northcote' }).waitFor();
      expect(await user.page.getByText(/Southgate/).count()).toBe(0);
      await lookAtWidths(user.page, shots, `limited-cases-${scheme}`);
    }
    await setDark(nell, false);
    const seen = await user.page.request.get('/api/cases/');
    expect((await seen.json()).results.map((c: { id: number }) => c.id)).toEqual([northCase]);

    // South's case by its address: not shown.
    await user.page.goto(`/cases/${southCase}`);
    await user.page.getByText('This case could not be found.').waitFor();
    expect(await user.page.getByText(/Southgate/).count()).toBe(0);
    await user.context.close();
  }, 300_000);
});
