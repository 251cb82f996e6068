import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  browser,
  everyScreenIn,
  firstId,
  lmsPaths,
  setDarkMode,
  settle,
  setUpBrowser,
  WIDE,
} from './every-screen';
import { axe, baseUrl, newPage, PHONE, place, screenshot, signedIn } from './helpers';

// Every screen of the three signed-in audiences, in light (here) and dark
// (every-screen-dark.test.ts): axe-core finds no WCAG 2.1 A/AA violation on any of them (public
// pages are always light: screens.test.ts covers them).
// The lists are also checked at 1280 px (state badges never truncated) and on a phone (stacked
// rows: nothing overflows sideways, the state stays visible).
// It checks the demo itself, so it signs in as the demo users and reads the demo data (the files
// that write use worlds of their own, e2e/fixtures.ts).

setUpBrowser();

describe('operations staff', () => {
  // First in the file: this is the operations user's one sign-in (the helper keeps it).
  it('land on their dashboard, not an empty customer dashboard', async () => {
    const { context, page } = await signedIn(browser(), 'ops@kestrel.test', { viewport: WIDE });
    expect(place(page)).toBe('/ops/dashboard');
    await page.getByRole('heading', { name: 'Operations dashboard' }).waitFor();
    await context.close();
  });
});

everyScreenIn('light');

// The public licensing pages (signed out, so always light): axe clean on a desktop and a phone,
// nothing wider than the phone.
describe('every public licensing screen', () => {
  it('has no accessibility violations at 1280 px and on a phone', async () => {
    const paths = await lmsPaths();
    const found: Record<string, unknown> = {};
    for (const [size, viewport] of [
      ['1280', WIDE],
      ['phone', PHONE],
    ] as const) {
      const { context, page } = await newPage(browser(), { viewport });
      for (const path of paths) {
        await page.goto(path);
        await settle(page);
        expect(place(page), path).toBe(path);
        const violations = await axe(page);
        if (violations.length > 0) found[`${path} ${size}`] = violations;
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
          `${path} ${size} overflow`,
        ).toBeLessThanOrEqual(0);
        const name = `every-public-${path.replace(/\W+/g, '-').replace(/^-|-$/g, '')}`;
        await screenshot(page, `${name}-light-${size}`);
      }
      await context.close();
    }
    expect(found).toEqual({});
  }, 300_000);
});

describe('the dark brand buttons of the second brand', () => {
  it('pass contrast on the case list and a case', async () => {
    const host = '127.0.0.1';
    const user = 'admin@acme.test';
    const caseId = await firstId(user, '/api/cases/');
    await setDarkMode(user, true, host);
    try {
      const { context, page } = await signedIn(browser(), user, { host, viewport: WIDE });
      for (const path of ['/cases', `/cases/${caseId}`, '/subjects', '/processes']) {
        await page.goto(path);
        await settle(page);
        expect(await axe(page), path).toEqual([]);
      }
      await context.close();
    } finally {
      await setDarkMode(user, false, host);
    }
  });
});

/** Labels of state badges whose text is cut (wider than their box). */
const truncatedBadges = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('[data-state] .mantine-Badge-label')]
      .filter((l) => l.scrollWidth > l.clientWidth + 1)
      .map((l) => l.textContent),
  );

describe('lists', () => {
  it('never truncate a state badge at 1280 px', async () => {
    const admin = await signedIn(browser(), 'admin@acme.test', { viewport: WIDE });
    for (const path of ['/cases', '/case-activities', '/outstanding-activities']) {
      await admin.page.goto(path);
      await settle(admin.page);
      expect(await admin.page.locator('[data-state]').count(), path).toBeGreaterThan(0);
      expect(await truncatedBadges(admin.page), path).toEqual([]);
    }
    await admin.context.close();
    const ops = await signedIn(browser(), 'ops@kestrel.test', { viewport: WIDE });
    await ops.page.goto('/ops/outstanding-activities');
    await settle(ops.page);
    expect(await ops.page.locator('[data-state]').count()).toBeGreaterThan(0);
    expect(await truncatedBadges(ops.page)).toEqual([]);
    await ops.context.close();
  });

  it('stack their rows on a phone, with every column and the state in view', async () => {
    const { context, page } = await signedIn(browser(), 'admin@acme.test', { viewport: PHONE });
    for (const path of [
      '/cases',
      '/subjects',
      '/audit-log',
      '/outstanding-activities',
      '/case-activities',
      '/processes',
    ]) {
      await page.goto(path);
      await settle(page);
      const layout = await page.evaluate(() => {
        const table = document.querySelector('table');
        const row = table?.querySelector('tbody tr');
        const cells = [...(row?.querySelectorAll('td') ?? [])];
        return {
          overflow: table ? table.scrollWidth - (table.parentElement?.clientWidth ?? 0) : -1,
          page: document.documentElement.scrollWidth - window.innerWidth,
          hiddenCells: cells.filter((c) => {
            const r = c.getBoundingClientRect();
            return r.width === 0 || r.right > window.innerWidth || r.left < 0;
          }).length,
          cells: cells.length,
        };
      });
      expect(layout.cells, path).toBeGreaterThan(1);
      expect(layout, path).toMatchObject({ hiddenCells: 0 });
      expect(layout.overflow, path).toBeLessThanOrEqual(0);
      expect(layout.page, path).toBeLessThanOrEqual(0);
      const badge = page.locator('tbody [data-state]').first();
      if (await badge.count()) {
        const box = await badge.boundingBox();
        expect(box && box.x + box.width <= PHONE.width, `${path} state in view`).toBe(true);
      }
      await screenshot(page, `list-${path.replace(/\W+/g, '')}-phone`);
    }
    await context.close();
  });

  it("return from a case to the list with its filters ('← All cases')", async () => {
    const { context, page } = await signedIn(browser(), 'admin@acme.test', { viewport: WIDE });
    await page.goto('/cases?state=in-progress&ordering=created_at');
    await settle(page);
    await page
      .getByTestId('case-list')
      .getByRole('link', { name: /^#\d+$/ })
      .first()
      .click();
    await page.waitForURL(/\/cases\/\d+$/);
    await page.reload();
    await page.getByRole('link', { name: '← All cases' }).click();
    await page.waitForURL('**/cases?**');
    expect(place(page)).toBe('/cases?state=in-progress&ordering=created_at');
    await context.close();
  });
});

describe('the app frame', () => {
  it('is restored on reload without passing through the public sign-in frame', async () => {
    const { context, page } = await signedIn(browser(), 'admin@acme.test', { viewport: WIDE });
    await page.goto('/cases');
    await page.getByTestId('user-menu').waitFor();
    // Records whether the public frame (its brand panel) is ever in the page while it reloads.
    await page.addInitScript(() => {
      const seen = () => document.querySelector('aside[aria-label^="About "]') !== null;
      const record = () => {
        if (seen()) sessionStorage.setItem('public-frame-seen', 'y');
      };
      new MutationObserver(record).observe(document, { subtree: true, childList: true });
    });
    for (const path of ['/cases', '/subjects', '/audit-log']) {
      await page.goto(path);
      await page.getByTestId('user-menu').waitFor();
      await page.reload();
      await page.getByTestId('user-menu').waitFor();
      expect(place(page)).toBe(path);
    }
    expect(await page.evaluate(() => sessionStorage.getItem('public-frame-seen'))).toBeNull();
    await context.close();
  });

  it('keeps the signed-in frame on a 404', async () => {
    const { context, page } = await signedIn(browser(), 'admin@acme.test', { viewport: WIDE });
    await page.goto('/no/such/page');
    await page.getByTestId('not-found').waitFor();
    await page.getByTestId('user-menu').waitFor();
    expect(await page.locator('aside[aria-label^="About "]').count()).toBe(0);
    await context.close();
  });

  it("gives each public page its own first heading, not the brand's tagline", async () => {
    const { context, page } = await newPage(browser(), { viewport: WIDE });
    for (const path of ['/login', '/signup', '/auth/password-reset', '/no/such/page']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const first = page.getByRole('heading').first();
      expect(await first.evaluate((h) => h.tagName), path).toBe('H1');
    }
    await context.close();
  });

  it('shows the app for an address with doubled slashes', async () => {
    const { context, page } = await newPage(browser(), { viewport: WIDE });
    await page.goto(`${baseUrl()}//login`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(place(page)).toBe('/login');
    await context.close();
  });
});
