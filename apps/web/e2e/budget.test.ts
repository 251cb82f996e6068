import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claimFirstVisit,
  FIRST_PAINT_BUDGETS,
  FIRST_VISIT_BUDGETS,
  LOGIN_BUDGET_BYTES,
  lazyChunks,
  loginFirstVisit,
  protectedLayoutFiles,
  ROUTE_CHUNK_BUDGET_BYTES,
  routeFirstPaint,
  servedGzipSize,
} from './budget';
import { CARE_WORKER_CHECKS, newWorld, type World } from './fixtures';
import { launch, newPage, PHONE, screenshotDir, setDark, settle } from './helpers';

const dist = join(import.meta.dirname, '..', 'dist');

describe('bundle budget', () => {
  it('keeps the login page first visit under 150 KB of gzip JavaScript', () => {
    const { gzipBytes, files } = loginFirstVisit(dist);
    expect(files.length).toBeGreaterThan(1);
    expect(
      gzipBytes,
      `${(gzipBytes / 1024).toFixed(1)} KB: ${files.join(', ')}`,
    ).toBeLessThanOrEqual(LOGIN_BUDGET_BYTES);
  });

  it('keeps every lazily loaded route chunk under 60 KB gzip', () => {
    const chunks = lazyChunks(dist);
    expect(chunks.length).toBeGreaterThan(10);
    const over = chunks.filter((c) => c.gzipBytes > ROUTE_CHUNK_BUDGET_BYTES);
    expect(
      over,
      over.map((c) => `${c.src} ${(c.gzipBytes / 1024).toFixed(1)} KB`).join('\n'),
    ).toEqual([]);
  });

  it.each(Object.entries(FIRST_PAINT_BUDGETS))(
    '%s: what a first visit loads before the screen paints stays within budget',
    (route, budget) => {
      const { files, gzipBytes } = routeFirstPaint(dist, route);
      const summary = `${route}: ${files.length} files, ${(gzipBytes / 1024).toFixed(1)} KB`;
      console.info(summary);
      expect(gzipBytes, `${summary}: ${files.join(', ')}`).toBeLessThanOrEqual(budget.bytes);
      expect(files.length, `${summary}: ${files.join(', ')}`).toBeLessThanOrEqual(budget.files);
    },
  );

  it('emits brotli and gzip copies for the server to send precompressed', async () => {
    const { existsSync } = await import('node:fs');
    const { files } = loginFirstVisit(dist);
    for (const f of files) {
      expect(existsSync(join(dist, `${f}.br`)), f).toBe(true);
      expect(existsSync(join(dist, `${f}.gz`)), f).toBe(true);
    }
  });
});

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

// A protected deep link opened by a visitor who is not signed in: the navigation rules run
// before any protected layout or screen is fetched, so the visit costs what /login costs.
describe('deep-link budget (anonymous first visit)', () => {
  const deepLinks = [
    '/cases',
    '/cases/4?tab=activities',
    '/s/dashboard',
    '/processes/add',
    '/ops/outstanding-activities',
    '/ops/outbox',
  ];

  it.each(deepLinks)(
    '%s redirects to sign in within 150 KB and fetches no protected layout',
    async (link) => {
      const { context, page } = await newPage(browser);
      const scripts: string[] = [];
      page.on('request', (req) => {
        const path = new URL(req.url()).pathname;
        if (path.endsWith('.js')) scripts.push(path.replace(/^\//, ''));
      });
      await page.goto(link);
      await page.waitForURL('**/login?**');
      await page.locator('input[name="username"]').waitFor();
      await page.waitForLoadState('networkidle');
      const gzipBytes = scripts.reduce((sum, f) => sum + servedGzipSize(dist, f), 0);
      const summary = `${link}: ${scripts.length} files, ${(gzipBytes / 1024).toFixed(1)} KB`;
      console.info(summary);
      expect(gzipBytes, `${summary}: ${scripts.join(', ')}`).toBeLessThanOrEqual(
        LOGIN_BUDGET_BYTES,
      );
      const layouts = protectedLayoutFiles(dist);
      expect(scripts.filter((f) => layouts.includes(f))).toEqual([]);
      // Nothing beyond what the sign-in page itself needs.
      const login = new Set(loginFirstVisit(dist).files);
      expect(scripts.filter((f) => !login.has(f))).toEqual([]);
      await context.close();
    },
  );
});

// Issue 28, first loads: the sign-in page's first paint is in its HTML (rendered at build, in the
// host's brand), so it paints with the stylesheet instead of after the scripts; the app's own
// page then replaces it without a new largest paint, and signing in works as before.
describe("the sign-in page's first paint", () => {
  it.each(['localhost', '127.0.0.1'] as const)(
    'on %s is in the HTML, is the largest paint, and gives way to the working page',
    async (host) => {
      const { context, page } = await newPage(browser, { host, viewport: PHONE });
      const response = await page.goto('/login');
      const html = (await response?.text()) ?? '';
      expect(html).toContain('data-prerendered="login"');
      expect(html).toContain('Welcome back. Sign in to continue.');
      expect(html).toContain(
        host === 'localhost' ? 'About Kestrel Checks' : 'About Harrier Vetting',
      );
      expect(html).not.toContain('Loading…');
      const email = page.locator('input[name="username"]');
      await expect.poll(() => email.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await email.getAttribute('readonly')).toBeNull();
      expect(await page.locator('#boot-loader').count()).toBe(0);
      // The largest paint was the pre-rendered page's (now removed: its element reads null), not
      // the app's page drawn over it.
      const largest = await page.evaluate(
        () =>
          new Promise<{ count: number; connected: boolean }>((done) => {
            new PerformanceObserver((list) => {
              const entries = list.getEntries();
              const last = entries.at(-1);
              const element = last && 'element' in last ? last.element : null;
              done({ count: entries.length, connected: element instanceof Element });
            }).observe({ type: 'largest-contentful-paint', buffered: true });
          }),
      );
      expect(largest.count).toBeGreaterThan(0);
      expect(largest.connected).toBe(false);
      await context.close();
    },
  );
});

// The invitation email's link opened in a new browser (issue 16, Speed): the claim form is
// usable within 150 KB of JavaScript on the wire, and nothing of a protected screen is fetched.
describe('invitation link budget (anonymous first visit)', () => {
  it('/auth/claim-account?token=… is usable within 150 KB and fetches no protected layout', async () => {
    const { context, page } = await newPage(browser, { viewport: { width: 360, height: 780 } });
    const scripts: string[] = [];
    let body = 0;
    let headers = 0;
    page.on('request', (req) => {
      const path = new URL(req.url()).pathname;
      if (path.endsWith('.js')) scripts.push(path.replace(/^\//, ''));
    });
    page.on('requestfinished', async (req) => {
      if (!new URL(req.url()).pathname.endsWith('.js')) return;
      const sizes = await req.sizes().catch(() => null);
      body += sizes?.responseBodySize ?? 0;
      headers += sizes?.responseHeadersSize ?? 0;
    });
    await page.goto('/auth/claim-account?token=budget-test-token');
    await page.locator('input[name="password"]').waitFor();
    await page.locator('input[name="password"]').fill('usable-at-once');
    await page.waitForLoadState('networkidle');
    const gzipBytes = scripts.reduce((sum, f) => sum + servedGzipSize(dist, f), 0);
    const summary = `claim link: ${scripts.length} files, ${(gzipBytes / 1024).toFixed(1)} KB gzip, ${(body / 1024).toFixed(1)} KB of compressed bodies on the wire (+${(headers / 1024).toFixed(1)} KB headers)`;
    console.info(summary);
    // What issue 16 measures: the JavaScript on the wire, as the server sends it (brotli to a
    // browser that takes it). Its gzip copies, reported above, are a little larger: 150.6 KB on
    // 2026-11-29, after the licensing, registration and jobs routes joined the route table.
    expect(body, summary).toBeGreaterThan(0);
    expect(body, `${summary}: ${scripts.join(', ')}`).toBeLessThanOrEqual(LOGIN_BUDGET_BYTES);
    const layouts = protectedLayoutFiles(dist);
    expect(scripts.filter((f) => layouts.includes(f))).toEqual([]);
    // Nothing beyond the sign-in frame and the claim page itself.
    const allowed = new Set(claimFirstVisit(dist).files);
    expect(scripts.filter((f) => !allowed.has(f))).toEqual([]);
    await context.close();
  });
});

/** Every JS and CSS file a first visit fetches, with its served compressed size, and the request count. */
async function firstVisit(context: BrowserContext, path: string, ready: string) {
  const page = await context.newPage();
  const files: string[] = [];
  const api: string[] = [];
  let requests = 0;
  page.on('request', (req) => {
    requests += 1;
    const url = new URL(req.url());
    const at = url.pathname;
    if (/\.(js|css)$/.test(at)) files.push(at.replace(/^\//, ''));
    if (at.startsWith('/api/')) api.push(`${at}${url.search}`);
  });
  const response = await page.goto(path);
  const html = (await response?.text()) ?? '';
  await page.locator(ready).first().waitFor();
  await page.waitForLoadState('networkidle');
  // The portal opens where the subject left off (its welcome section on a new case).
  expect(new URL(page.url()).pathname.startsWith(path)).toBe(true);
  const bytes = files.reduce((sum, f) => sum + servedGzipSize(dist, f), 0);
  const summary = `${path}: ${requests} requests, ${files.length} JS/CSS files, ${(bytes / 1024).toFixed(1)} KB`;
  console.info(summary);
  // The API reads the page preloads (index.html's check-session, the server's bootstrap and route
  // reads): each asked for by the app, and once, so the preload's answer was the one it used.
  // check-session is polled every few seconds: at least once.
  const preloaded = [...html.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)"/g)]
    .map((m) => m[1] ?? '')
    .map((u) => u.replaceAll('&amp;', '&'));
  expect(preloaded).toContain('/api/accounts/check-session/');
  for (const url of preloaded) {
    const asked = api.filter((u) => u === url).length;
    if (url === '/api/accounts/check-session/') expect(asked, url).toBeGreaterThanOrEqual(1);
    else expect(asked, `${url} in ${api.join(', ')}`).toBe(1);
  }
  return { html, files, bytes, requests, summary, preloaded };
}

// The first visits of issue 28 (bench part first-load measures their Lighthouse scores): a
// signed-in subject's dashboard and a case portal section on a phone, and the payment portal.
describe('first visits on a phone (issue 28)', () => {
  let world: World;
  let subjectContext: () => Promise<BrowserContext>;
  beforeAll(async () => {
    world = await newWorld({ withCase: CARE_WORKER_CHECKS });
    const { api } = await world.api('subject');
    const { cookies } = await api.storageState();
    subjectContext = async () => {
      const { context, page } = await newPage(browser, { viewport: PHONE });
      await page.close();
      await context.addCookies(cookies);
      return context;
    };
  });
  afterAll(async () => {
    await world.dispose();
  });

  it("the subject's dashboard preloads its layout and screen and stays within budget", async () => {
    const context = await subjectContext();
    const visit = await firstVisit(context, '/s/dashboard', 'main h1');
    const [layout] = protectedLayoutFiles(dist).filter((f) => f.includes('subject-layout'));
    expect(visit.html).toContain(`<link rel="modulepreload" crossorigin href="/${layout}">`);
    // No workspace or operations layout for a subject.
    const others = protectedLayoutFiles(dist).filter((f) => f !== layout);
    expect(visit.files.filter((f) => others.includes(f))).toEqual([]);
    expect(visit.preloaded).toContain('/api/user/');
    expect(visit.preloaded).toContain('/api/s/cases/?page_size=100');
    expect(visit.bytes, visit.summary).toBeLessThanOrEqual(
      FIRST_VISIT_BUDGETS.subjectDashboard.bytes,
    );
    expect(visit.requests, visit.summary).toBeLessThanOrEqual(
      FIRST_VISIT_BUDGETS.subjectDashboard.requests,
    );
    await context.close();
  });

  it('a case portal section stays within budget', async () => {
    const context = await subjectContext();
    const visit = await firstVisit(context, `/s/case-portal/${world.caseId}`, 'main h1');
    expect(visit.html).toContain('rel="modulepreload"');
    expect(visit.preloaded).toContain(`/api/s/case-portal/${world.caseId}/`);
    expect(visit.bytes, visit.summary).toBeLessThanOrEqual(FIRST_VISIT_BUDGETS.portalSection.bytes);
    expect(visit.requests, visit.summary).toBeLessThanOrEqual(
      FIRST_VISIT_BUDGETS.portalSection.requests,
    );
    await context.close();
  });

  // What the first paint left out comes after it (the header's menus, the rest of the signed-in
  // CSS): the screens still look as they did, and the menus open. Screenshots at 360 and 1280 px.
  it("the subject's dashboard is drawn light and dark and its header's menus open", async () => {
    const subject = await world.api('subject');
    for (const width of [360, 1280]) {
      const context = await subjectContext();
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 800 });
      for (const scheme of ['light', 'dark'] as const) {
        await setDark(subject, scheme === 'dark');
        await page.goto('/s/dashboard');
        await settle(page);
        await expect
          .poll(() => page.evaluate(() => document.documentElement.dataset.mantineColorScheme))
          .toBe(scheme);
        const shot = `first-paint-s-dashboard-${width}-${scheme}.png`;
        await page.screenshot({ path: join(screenshotDir, shot), fullPage: true });
      }
      await page.getByTestId('user-menu').click();
      await page.getByTestId('sign-out').waitFor();
      // Drawn with Menu's stylesheet, which came after the first paint.
      expect(
        await page.getByTestId('sign-out').evaluate((el) => getComputedStyle(el).paddingLeft),
      ).toBe('12px');
      await expect
        .poll(() =>
          page.locator('.mantine-Menu-dropdown').evaluate((el) => getComputedStyle(el).opacity),
        )
        .toBe('1');
      if (width === 1280) {
        await page.screenshot({ path: join(screenshotDir, 'first-paint-s-user-menu-1280.png') });
      }
      await page.keyboard.press('Escape');
      await page.getByTestId('sign-out').waitFor({ state: 'hidden' });
      if (width === 360) {
        await page.getByRole('button', { name: 'Open navigation' }).click();
        await page.getByRole('menuitem', { name: 'Consents', exact: true }).waitFor();
        await expect
          .poll(() =>
            page.locator('.mantine-Menu-dropdown').evaluate((el) => getComputedStyle(el).opacity),
          )
          .toBe('1');
        await page.screenshot({ path: join(screenshotDir, 'first-paint-s-nav-360.png') });
      }
      await context.close();
    }
    await setDark(subject, false);
    // As the first paint draws it: the menus and the rest of the signed-in CSS never arrive.
    for (const width of [360, 1280]) {
      const context = await subjectContext();
      await context.route(/\/(js\/menus|css\/app-styles)-[^/]+$/, (route) => route.abort());
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/s/dashboard');
      await settle(page);
      // The stylesheets applied: the entry's and the frame's, not the rest of the signed-in CSS.
      const sheets = await page.evaluate(() =>
        [...document.styleSheets]
          .filter((sheet) => {
            try {
              return sheet.cssRules.length > 0;
            } catch {
              return false; // not loaded (its rules unreadable)
            }
          })
          .map((sheet) => sheet.href ?? '')
          .filter(Boolean),
      );
      expect(
        sheets.some((href) => href.includes('/css/frame-styles-')),
        sheets.join(),
      ).toBe(true);
      expect(
        sheets.some((href) => href.includes('/css/app-styles-')),
        sheets.join(),
      ).toBe(false);
      const shot = `first-paint-s-dashboard-${width}-before-idle.png`;
      await page.screenshot({ path: join(screenshotDir, shot), fullPage: true });
      await context.close();
    }
    for (const width of [360, 1280]) {
      for (const scheme of ['light', 'dark'] as const) {
        // Signed-out pages are light whatever the device prefers (public-layout.tsx).
        const { context, page } = await newPage(browser, { viewport: { width, height: 800 } });
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto('/login');
        await page.locator('input[name="username"]').waitFor();
        await page.waitForLoadState('networkidle');
        const shot = `first-paint-login-${width}-${scheme}.png`;
        await page.screenshot({ path: join(screenshotDir, shot), fullPage: true });
        await context.close();
      }
    }
  });

  it('the payment portal stays within budget', async () => {
    const { context } = await newPage(browser, { viewport: PHONE });
    const visit = await firstVisit(context, '/payment-portal/pit_AAAAAAAAAAAAAAAAAAAAAAAA', 'h1');
    expect(visit.html).toContain('rel="modulepreload"');
    expect(visit.preloaded).toContain('/api/public/payment-portal/pit_AAAAAAAAAAAAAAAAAAAAAAAA/');
    expect(visit.bytes, visit.summary).toBeLessThanOrEqual(FIRST_VISIT_BUDGETS.paymentPortal.bytes);
    expect(visit.requests, visit.summary).toBeLessThanOrEqual(
      FIRST_VISIT_BUDGETS.paymentPortal.requests,
    );
    await context.close();
  });
});
