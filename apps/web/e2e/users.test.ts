import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import { type Api, launch, loginUi, lookAtWidths, newPage, send } from './helpers';

// Users and roles (issue 30): an administrator invites a user with a custom role through
// /users/add; the user claims the account (the invitation's link), signs in; the administrator
// deactivates them and their open page goes to the login within one check-session poll. Every
// users screen at 1280 and 360 px, light and dark, axe clean, in /tmp/shots/users/.

const shots = '/tmp/shots/users';
mkdirSync(shots, { recursive: true });
const PASSWORD = 'site-manager-e2e-2026';

let browser: Browser;
let world: World;
let admin: Api;
let ops: Api;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({ ops: true });
  admin = await world.api('admin');
  ops = await world.api('ops');
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

async function settle(page: Page) {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
  // the skeletons in view (a tab not shown keeps its panel, unloaded, out of view)
  await expect.poll(() => page.locator('.mantine-Skeleton-root:visible').count()).toBe(0);
}

/** The screen light and dark (the profile's dark mode, reloaded), each at 1280 and 360 px. */
async function look(page: Page, name: string) {
  for (const dark of [false, true]) {
    await send(admin, 'put', '/api/user/', { dark_mode: dark });
    await page.reload();
    await settle(page);
    await lookAtWidths(page, shots, `${name}-${dark ? 'dark' : 'light'}`);
  }
  await send(admin, 'put', '/api/user/', { dark_mode: false });
}

describe('users and roles', () => {
  it('invite with a custom role, claim, sign in; deactivated, signed out within one poll', async () => {
    const role = await send(admin, 'post', '/api/roles/', {
      name: 'Site manager',
      permissions: ['cases.view_case', 'subjects.view_subject'],
    });
    const { page } = await world.signedIn(browser, 'admin');

    await page.goto('/users?tab=roles');
    await page.getByRole('button', { name: 'Edit Site manager' }).waitFor();
    await look(page, 'roles');

    // The invitation through its screen.
    const email = `maya-${Date.now()}@acme.test`;
    await page.goto('/users/add');
    await settle(page);
    await look(page, 'user-add');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('First name').fill('Maya');
    await page.getByLabel('Last name').fill('Okafor');
    await page.getByLabel('Job title').fill('Site manager');
    await page.getByRole('combobox', { name: 'Roles', exact: true }).click();
    await page.getByRole('option', { name: 'Site manager' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.waitForURL(/\/users\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByText('Invited').first().waitFor();
    const invited = await (await admin.api.get(`/api/users/${id}/`)).json();
    expect(invited).toMatchObject({ status: 'invited', roles: [role.id] });

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
    await loginUi(user.page, email, PASSWORD);
    await user.page.waitForURL('**/dashboard');

    // Active now, with a last sign-in: the list and the user's page.
    await page.goto('/users?status=active');
    await page
      .getByRole('link', { name: /Maya Okafor/ })
      .first()
      .waitFor();
    await look(page, 'users');
    await page.goto(`/users/${id}`);
    await page.getByText('Active').first().waitFor();
    await look(page, 'user');
    await page.goto(`/users/${id}/edit`);
    await settle(page);
    await look(page, 'user-edit');

    // Deactivated: the user's open page goes to the login within one poll (~5 s).
    await page.goto(`/users/${id}`);
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('button', { name: 'Reactivate' }).waitFor();
    await user.page.waitForURL(/\/login/, { timeout: 7_000 });
    await user.context.close();
  }, 300_000);
});
