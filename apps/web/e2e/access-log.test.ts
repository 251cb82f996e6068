import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Api,
  apiAs,
  launch,
  lookAtWidths,
  lookLightAndDark,
  screenshotDir,
  settle,
  signedIn,
} from './helpers';

// Who saw what (issue 34): Acme's administrator opens a case with a criminal-record result and
// a document on another case; the views appear on each case's 'Who saw what' section and in the
// audit log, filtered by case and kind. The demo's cases hold the results and documents; their
// ids are read from the demo's own recorded views (reading the record records nothing).

const ADMIN = 'admin@acme.test';
let browser: Browser;
let admin: Api;
let name = '';
let resultCase = 0;
let documentCase = 0;

interface View {
  case: number;
  item_kind: string;
  item_label: string;
  how: string;
  actor_name: string;
  count: number;
  last_seen_at: string;
}

const viewsOf = async (qs: string): Promise<View[]> => {
  const res = await admin.api.get(`/api/record-views/?page_size=100&${qs}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).results;
};

beforeAll(async () => {
  browser = await launch();
  admin = await apiAs(ADMIN);
  const me = await (await admin.api.get('/api/user/')).json();
  name = `${me.first_name} ${me.last_name}`.trim();
  resultCase = (await viewsOf('item_kind=criminal_record'))[0]?.case ?? 0;
  documentCase = (await viewsOf('item_kind=document'))[0]?.case ?? 0;
  expect(resultCase).toBeGreaterThan(0);
  expect(documentCase).toBeGreaterThan(0);
});
afterAll(async () => {
  await admin?.api.dispose();
  await browser?.close();
});

const today = () => new Date().toISOString().slice(0, 10);
const mineToday = (rows: View[]) =>
  rows.filter((r) => r.actor_name === name && r.last_seen_at.startsWith(today()));

async function caseViews(page: Page, caseId: number) {
  await page.goto(`/cases/${caseId}`);
  await settle(page);
  const section = page.getByTestId('case-views');
  await section.scrollIntoViewIfNeeded();
  return section;
}

describe('who saw what', () => {
  it('a result opened on the case page shows on the case, with who, how and how many times', async () => {
    const { context, page } = await signedIn(browser, ADMIN);
    await page.goto(`/cases/${resultCase}`);
    await page.getByTestId('case-activity').first().waitFor();
    await expect
      .poll(async () => mineToday(await viewsOf(`case=${resultCase}&item_kind=criminal_record`)))
      .not.toEqual([]);
    // read again: folded into the same line, counted
    const section = await caseViews(page, resultCase);
    const row = section
      .getByRole('row')
      .filter({ hasText: name })
      .filter({ hasText: 'Criminal-record result' });
    await expect.poll(() => row.count()).toBeGreaterThan(0);
    const mine = mineToday(await viewsOf(`case=${resultCase}&item_kind=criminal_record`));
    expect(mine.every((r) => r.how === 'page' && r.count >= 2)).toBe(true);
    await expect.poll(() => row.first().textContent()).toContain('Viewed');
    const dir = `${screenshotDir}/access-log`;
    mkdirSync(dir, { recursive: true });
    await lookAtWidths(page, dir, 'case-views');
    await lookLightAndDark(page, admin, dir, 'case-views');
    await context.close();
  });

  it('a document opened from the case shows as viewed, on the case and in the audit log', async () => {
    const { context, page } = await signedIn(browser, ADMIN);
    await page.goto(`/cases/${documentCase}`);
    await settle(page);
    const open = page.locator('a[href*="/download/"]').first();
    await open.waitFor();
    await open.scrollIntoViewIfNeeded();
    const [tab] = await Promise.all([context.waitForEvent('page'), open.click()]);
    await tab.waitForLoadState();
    await tab.close();
    await expect
      .poll(async () => mineToday(await viewsOf(`case=${documentCase}&item_kind=document`)).length)
      .toBeGreaterThan(0);
    const section = await caseViews(page, documentCase);
    await expect
      .poll(() =>
        section.getByRole('row').filter({ hasText: name }).filter({ hasText: 'Document' }).count(),
      )
      .toBeGreaterThan(0);

    // the audit log: every view, filtered by case and by kind of item
    await page.goto('/audit-log');
    await settle(page);
    const log = page.getByTestId('record-views');
    await log.getByLabel('Case').fill(String(documentCase));
    await expect
      .poll(() =>
        log.getByRole('row').filter({ hasText: name }).filter({ hasText: 'Document' }).count(),
      )
      .toBeGreaterThan(0);
    await log.getByPlaceholder('Kind of item').click();
    await page.getByRole('option', { name: 'Criminal-record result' }).click();
    await expect.poll(() => log.getByRole('row').filter({ hasText: 'Document' }).count()).toBe(0);
    await log.getByLabel('Case').fill(String(resultCase));
    await expect
      .poll(() =>
        log
          .getByRole('row')
          .filter({ hasText: name })
          .filter({ hasText: 'Criminal-record result' })
          .count(),
      )
      .toBeGreaterThan(0);
    const dir = `${screenshotDir}/access-log`;
    await log.scrollIntoViewIfNeeded();
    await lookAtWidths(page, dir, 'audit-log-views');
    await context.close();
  });
});
