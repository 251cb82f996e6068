import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import { type Api, launch, lookAtWidths, PHONE, send } from './helpers';

// The knowledge test taken online (issue 27, point 2 of the spec's result panels), on a world of
// its own: two people submit their case; the check engine invites each to the online test
// platform (its simulator: apps/server/src/providers/test-platform/README.md); each opens the
// invitation link from their case page; a simulated day later the platform's simulator posts its
// signed callback (no poll: the providers' clock is moved on its own) and the customer's panel
// shows the result: pass (no tag in the email) or fail (`+kt-fail`), per-test percentage,
// completion time, intro info and categories. Screenshots in /tmp/shots/d/ at 1280 and 360 px,
// axe clean.

const shots = '/tmp/shots/d';
mkdirSync(shots, { recursive: true });
const PROCESS = 'Knowledge test';
const CATEGORIES = [
  'Highway Code',
  'Safeguarding and equality',
  'Local knowledge',
  'Licensing conditions',
];

let browser: Browser;
let world: World;
let admin: Api;
let ops: Api;
const cases: Record<string, number> = {};

type Activity = { id: number; state: string; result_data: Record<string, unknown> };
async function knowledgeTest(caseId: number): Promise<Activity> {
  const res = await admin.api.get(`/api/cases/${caseId}/`);
  expect(res.status()).toBe(200);
  const list = (await res.json()).case_activities as (Activity & { activity_type: string })[];
  const a = list.find((x) => x.activity_type === 'knowledge-test');
  if (!a) throw new Error(`no knowledge test on case ${caseId}`);
  return a;
}

/** The subject hands the case over through the portal's API (the test has no section). */
async function submit(key: string, caseId: number) {
  const subject = await world.api(key);
  const portal = await (await subject.api.get(`/api/s/case-portal/${caseId}/`)).json();
  const sections: string[] = portal.portal.sections;
  await send(subject, 'patch', `/api/s/case-portal/${caseId}/`, {
    portal_last_completed_section: sections[sections.indexOf('review') - 1] ?? 'welcome',
  });
  await send(subject, 'post', `/api/s/case-portal/${caseId}/submit/`, {});
}

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    ops: true,
    processes: [{ name: PROCESS, requirements: ['knowledge-test'] }],
    subjects: [
      { key: 'kai', firstName: 'Kai', lastName: 'Passmore' },
      { key: 'fay', firstName: 'Fay', lastName: 'Failing', emailTag: 'kt-fail' },
    ],
  });
  admin = await world.api('admin');
  ops = await world.api('ops');
  for (const key of ['kai', 'fay']) cases[key] = await world.openCase(PROCESS, key);
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

/** The customer's case page with the knowledge test's panel loaded. */
async function customerPanel(page: Page, caseId: number) {
  await page.goto(`/cases/${caseId}`);
  const panel = page.locator('[data-kind="knowledge-test"]').getByTestId('knowledge-test-panel');
  await panel.waitFor({ timeout: 15_000 });
  await page.waitForLoadState('networkidle');
  return panel;
}

describe('the knowledge test taken online', () => {
  it('invites on submission; each person opens the link from their case page', async () => {
    for (const key of ['kai', 'fay']) await submit(key, Number(cases[key]));
    for (const key of ['kai', 'fay']) {
      const caseId = Number(cases[key]);
      await expect
        .poll(async () => (await knowledgeTest(caseId)).result_data.test_url ?? '', {
          message: `${key}'s invitation`,
          timeout: 30_000,
        })
        .toMatch(/^https:\/\/knowledge-test\.example\/take\/KT-/);
      expect((await knowledgeTest(caseId)).state).toBe('ca-in-progress');
    }
    const caseId = Number(cases.fay);
    const url = String((await knowledgeTest(caseId)).result_data.test_url);
    // the invitation went by email too (the outbox), with the same link
    const mails = async () =>
      (
        await (
          await ops.api.get('/api/ops/outbox/', { params: { to: world.subjects.fay?.email ?? '' } })
        ).json()
      ).results as { text: string }[];
    await expect
      .poll(async () => (await mails()).some((m) => m.text.includes(url)), { timeout: 15_000 })
      .toBe(true);

    const { context, page } = await world.signedIn(browser, 'fay', { viewport: PHONE });
    // the platform's own site (an example address: nothing is there; its page stands in here)
    await context.route('https://knowledge-test.example/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><html lang="en"><title>Knowledge test</title><h1>Knowledge test</h1></html>',
      }),
    );
    await page.goto(`/s/cases/${caseId}`);
    const panel = page.getByTestId('knowledge-test-panel');
    await panel.waitFor({ timeout: 15_000 });
    expect(await panel.textContent()).toContain('This knowledge test has not yet been completed');
    await page.waitForLoadState('networkidle');
    await lookAtWidths(page, shots, 'kt-subject-invited');
    const take = panel.getByRole('link', { name: 'Take the knowledge test' });
    expect(await take.getAttribute('href')).toBe(url);
    const [tab] = await Promise.all([context.waitForEvent('page'), take.click()]);
    await tab.waitForLoadState();
    expect(tab.url()).toBe(url);
    await context.close();
  }, 300_000);

  it("a simulated day later the platform's signed callback brings each result", async () => {
    // the providers' clock moves a day (an activity that is none: nothing is polled)
    const moved = await send(ops, 'post', '/api/ops/checks/simulator/advance/', {
      activity: 2_000_000_000,
      days: 1,
    });
    expect(moved.found).toBe(false);
    for (const key of ['kai', 'fay']) {
      const a = await knowledgeTest(Number(cases[key]));
      expect(a.state).toBe('ca-in-progress');
      const answer = await world.testPlatformCallback(a.id);
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
      await expect
        .poll(async () => (await knowledgeTest(Number(cases[key]))).state, {
          message: `${key}'s result`,
          timeout: 15_000,
        })
        .toBe('ca-complete');
    }
  }, 300_000);

  it("the customer's panel: pass or fail, percentage, completion time, intro info, categories", async () => {
    const { context, page } = await world.signedIn(browser, 'admin');
    const expected = {
      kai: { person: ['Kai', 'Passmore'], result: 'Pass', percent: '85%', time: '23 min 40 s' },
      fay: { person: ['Fay', 'Failing'], result: 'Fail', percent: '45%', time: '31 min' },
    } as const;
    for (const key of ['kai', 'fay'] as const) {
      const want = expected[key];
      const panel = await customerPanel(page, Number(cases[key]));
      const text = (await panel.textContent()) ?? '';
      expect(text).not.toContain('This knowledge test has not yet been completed');
      expect(text).toContain(want.result);
      expect(text).toContain(want.percent);
      expect(text).toContain(want.time);
      const intro = panel.getByTestId('knowledge-test-intro');
      const introText = (await intro.textContent()) ?? '';
      for (const part of [
        ...want.person,
        world.subjects[key]?.email ?? '?',
        'Private hire driver',
        'New licence application',
      ])
        expect(introText, key).toContain(part);
      const table = panel.getByRole('table', { name: 'Knowledge test categories' });
      const rows = await table.locator('tbody tr').allTextContents();
      expect(rows.map((r) => CATEGORIES.find((c) => r.startsWith(c)))).toEqual(CATEGORIES);
      expect(await panel.getByRole('link', { name: 'Full results' }).getAttribute('href')).toMatch(
        /^https:\/\/knowledge-test\.example\/results\/KT-/,
      );
      await lookAtWidths(page, shots, `kt-customer-${want.result.toLowerCase()}`);
    }
    await context.close();

    // the person sees their own result, without the staff's link to the full results
    const person = await world.signedIn(browser, 'fay', { viewport: PHONE });
    await person.page.goto(`/s/cases/${cases.fay}`);
    const own = person.page.getByTestId('knowledge-test-panel');
    await own.getByTestId('knowledge-test-intro').waitFor({ timeout: 15_000 });
    await person.page.waitForLoadState('networkidle');
    expect(await own.textContent()).toContain('Fail');
    expect(await own.getByRole('link', { name: 'Full results' }).count()).toBe(0);
    await lookAtWidths(person.page, shots, 'kt-subject-fail');
    await person.context.close();
  }, 300_000);
});
