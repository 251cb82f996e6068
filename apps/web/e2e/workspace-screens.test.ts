import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARE_WORKER_CHECKS, newWorld, type World } from './fixtures';
import { axe, axeClean, launch, PHONE, send } from './helpers';

// The workspace screens the journey does not walk through: demo-mode requirements, duplicates
// and merge, archiving a subject, outstanding activities, and the lists on a phone. Each on
// worlds of its own (e2e/fixtures.ts): a demo-mode customer like Northgate for the requirements,
// and a customer like Acme (subject_dedup) whose subjects, case and outstanding activity the
// file makes, so it changes nothing another file reads.

const shots = '/tmp/shots/workspace-screens';
mkdirSync(shots, { recursive: true });
const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: join(shots, `${name}.png`), fullPage: false });

let browser: Browser;
/** A customer in demo mode (its staff choose checks), like the demo's Northgate Council. */
let demo: World;
/** A customer like the demo's Acme Care Ltd, with a case of the care worker checks. */
let world: World;
beforeAll(async () => {
  browser = await launch();
  [demo, world] = await Promise.all([
    newWorld({
      demoMode: true,
      processes: [
        { name: 'Taxi driver licensing', requirements: ['basic-details', 'licence-check', 'rtw'] },
      ],
    }),
    newWorld({
      entitlements: ['regportals', 'cycles', 'subject_dedup'],
      withCase: CARE_WORKER_CHECKS,
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([demo?.dispose(), world?.dispose()]);
  await browser?.close();
});

const stamp = Date.now();
const tag = [...String(stamp).slice(-6)].map((d) => 'abcdefghij'[Number(d)]).join('');
const Tag = tag.charAt(0).toUpperCase() + tag.slice(1);

describe('processes in a demo-mode organisation', () => {
  it('lets the administrator edit a process requirements', async () => {
    const { context, page } = await demo.signedIn(browser, 'admin');
    await page.goto('/processes');
    await page.getByRole('heading', { name: 'Processes' }).waitFor();
    await page.getByRole('table').getByRole('link').first().click();
    await page.getByRole('link', { name: 'Requirements' }).click();
    await page.getByTestId('requirements').waitFor();
    expect(await page.getByText('Read only').count()).toBe(0);
    const box = page.getByLabel('Right to work', { exact: true });
    const was = await box.isChecked();
    await box.setChecked(!was);
    await page.getByRole('button', { name: 'Save requirements' }).click();
    await page.getByText('Successfully updated requirements').waitFor();
    await screenshot(page, 'workspace-process-requirements-demo');
    await page.reload();
    await page.getByTestId('requirements').waitFor();
    expect(await page.getByLabel('Right to work', { exact: true }).isChecked()).toBe(!was);
    await page.getByLabel('Right to work', { exact: true }).setChecked(was);
    await page.getByRole('button', { name: 'Save requirements' }).click();
    await page.getByText('Successfully updated requirements').first().waitFor();
    expect(await axeClean(page)).toEqual([]);
    await context.close();
  });
});

describe('subjects', () => {
  it('finds likely duplicates, merges them, and archives a subject', async () => {
    const admin = await world.api('admin');
    const { api, csrf } = admin;
    const add = async (email: string) => {
      const res = await api.post('/api/subjects/', {
        data: { first_name: 'Robin', last_name: `${Tag}-Hale`, email, dob: '1988-06-02' },
        headers: { 'X-CSRFToken': csrf() },
      });
      expect(res.status(), await res.text()).toBe(201);
      return (await res.json()).id as number;
    };
    const kept = await add(`robin.hale.${stamp}@example.test`);
    const duplicate = await add(`r.hale.${stamp}@example.test`);
    const other = await add(`robin.hale.other.${stamp}@example.test`);
    await send(admin, 'post', `/api/subjects/${other}/archive/`, {});

    const { context, page } = await world.signedIn(browser, 'admin');
    await page.goto('/subjects');
    await page.getByLabel('Search subjects').fill(tag);
    await page
      .getByRole('link', { name: `Robin ${Tag}-Hale` })
      .first()
      .waitFor();
    await screenshot(page, 'workspace-subject-list');
    await page.goto(`/subjects/${kept}`);
    await page.getByRole('link', { name: 'Find duplicates' }).click();
    await page.getByTestId('duplicate-pair').first().waitFor();
    expect(await page.getByText('Same name and date of birth').count()).toBeGreaterThan(0);
    await screenshot(page, 'workspace-subject-duplicates');
    expect(await axe(page)).toEqual([]);
    const pair = page
      .getByTestId('duplicate-pair')
      .filter({ hasText: `r.hale.${stamp}@example.test` });
    await pair.getByRole('button', { name: /^Merge into/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Merge' }).click();
    await page.getByText('Successfully updated subject').first().waitFor();
    const merged = await (await api.get(`/api/subjects/${duplicate}/`)).json();
    expect(merged.is_archived).toBe(true);

    await page.goto(`/subjects/${kept}`);
    await page.getByRole('link', { name: 'Archive', exact: true }).click();
    await page.getByRole('heading', { name: 'Archive subject' }).waitFor();
    await screenshot(page, 'workspace-subject-archive');
    await page.getByRole('button', { name: 'Archive subject' }).click();
    await page.waitForURL(`**/subjects/${kept}`);
    await page.getByText(/^Archived /).waitFor();
    expect(await page.getByRole('link', { name: 'Open a case' }).count()).toBe(0);
    await context.close();
  });
});

describe('outstanding activities', () => {
  it('opens the oldest outstanding activity and moves it on', async () => {
    // The world's case waits for the customer on its address history (as the demo's does).
    const admin = await world.api('admin');
    const detail = await (await admin.api.get(`/api/cases/${world.caseId}/`)).json();
    const history = (detail.case_activities as { id: number; activity_type: string }[]).find(
      (a) => a.activity_type === 'address-history',
    );
    expect(history, JSON.stringify(detail.case_activities)).toBeDefined();
    await send(admin, 'patch', `/api/case-activities/${history?.id}/`, {
      state: 'ca-awaiting-agent',
    });

    const { context, page } = await world.signedIn(browser, 'admin');
    await page.goto('/outstanding-activities');
    await page.getByRole('heading', { name: 'Outstanding activities' }).waitFor();
    const first = page.getByRole('table').getByRole('link').first();
    await first.waitFor();
    await first.click();
    await page.waitForURL(/\/outstanding-activities\/\d+$/);
    expect(page.url()).toMatch(new RegExp(`/outstanding-activities/${history?.id}$`));
    // The list (whose case numbers are links too) gives way to the activity.
    await page.getByTestId('resource-table').waitFor({ state: 'detached' });
    await page.getByRole('link', { name: /^#\d+$/ }).waitFor();
    await screenshot(page, 'workspace-outstanding-detail');
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Mark complete' }).click();
    await page.getByText('Successfully updated case activity').waitFor();
    await page.waitForURL((url) => url.pathname === '/outstanding-activities');
    const moved = await (await admin.api.get(`/api/case-activities/${history?.id}/`)).json();
    expect(moved.state).toBe('ca-complete');
    await context.close();
  });
});

describe('on a phone', () => {
  it('shows the case list and a case', async () => {
    const { context, page } = await world.signedIn(browser, 'admin', { viewport: PHONE });
    await page.goto('/cases');
    await page.getByTestId('case-list').waitFor();
    await page
      .getByRole('link', { name: /^#\d+$/ })
      .first()
      .waitFor();
    await screenshot(page, 'workspace-case-list-phone');
    await page
      .getByRole('link', { name: /^#\d+$/ })
      .first()
      .click();
    await page.getByTestId('case-summary').waitFor();
    await screenshot(page, 'workspace-case-detail-phone');
    expect(await axe(page)).toEqual([]);
    await page.goto('/dashboard');
    await page.getByTestId('weekly-chart').waitFor();
    await screenshot(page, 'workspace-dashboard-phone');
    await context.close();
  });
});
