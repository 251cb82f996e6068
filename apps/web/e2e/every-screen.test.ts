import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  axe,
  baseUrl,
  type Host,
  launch,
  newPage,
  PHONE,
  place,
  screenshot,
  signedIn,
} from './helpers';

// Every screen of the three signed-in audiences, in light and dark: axe-core finds no WCAG 2.1
// A/AA violation on any of them (public pages are always light: screens.test.ts covers them).
// The lists are also checked at 1280 px (state badges never truncated) and on a phone (stacked
// rows: nothing overflows sideways, the state stays visible).
// It checks the demo itself, so it signs in as the demo users and reads the demo data (the files
// that write use worlds of their own, e2e/fixtures.ts).

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

const WIDE = { width: 1280, height: 860 };

// The API calls ride on a signed-in browser context (its cookies): no sign-in of their own, as
// the server limits sign-ins per address and the whole suite shares one.
interface Client {
  api: APIRequestContext;
  csrf: () => string;
  close: () => Promise<void>;
}
const clients = new Map<string, Promise<Client>>();
async function open(user: string, host: Host): Promise<Client> {
  const { context } = await signedIn(browser, user, { host });
  const check = await (await context.request.get('/api/accounts/check-session/')).json();
  const token: string = check.csrf_token;
  return { api: context.request, csrf: () => token, close: () => context.close() };
}
const client = (user: string, host: Host = 'localhost') => {
  const key = `${host} ${user}`;
  let c = clients.get(key);
  if (!c) {
    c = open(user, host);
    clients.set(key, c);
  }
  return c;
};
afterAll(async () => {
  for (const c of clients.values()) await (await c).close();
});

async function firstId(user: string, path: string): Promise<number> {
  const id = await maybeFirstId(user, path);
  expect(id, `${path} has a row`).toBeTypeOf('number');
  return id ?? 0;
}

/** The id of the list's first row, whatever its type (undefined for an empty list). */
async function firstRowId(user: string, path: string): Promise<unknown> {
  const { api } = await client(user);
  const body = await (await api.get(`${path}?page_size=1`)).json();
  return body.results?.[0]?.id;
}

/** The first row's id where ids are words ('product-3': the customer's payments). */
async function firstKey(user: string, path: string): Promise<string> {
  const id = await firstRowId(user, path);
  expect(id, `${path} has a row`).toBeTypeOf('string');
  return String(id);
}

async function maybeFirstId(user: string, path: string): Promise<number | null> {
  const id = await firstRowId(user, path);
  return typeof id === 'number' ? id : null;
}

/** The profile's dark mode, which the app applies when it loads the session. */
async function setDarkMode(user: string, dark: boolean, host: Host = 'localhost') {
  const { api, csrf } = await client(user, host);
  const res = await api.put('/api/user/', {
    data: { dark_mode: dark },
    headers: { 'X-CSRFToken': csrf() },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Waits until the screen has its heading and its data (no skeletons, no pending requests). */
async function settle(page: Page) {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
  await expect
    .poll(() => page.locator('.mantine-Skeleton-root').count(), { timeout: 10_000 })
    .toBe(0);
  // Toasts belong to the shell and fade: a screen's violations are the screen's own.
  await expect
    .poll(() => page.locator('.mantine-Notification-root').count(), { timeout: 10_000 })
    .toBe(0);
}

async function product(): Promise<string[]> {
  const admin = 'admin@acme.test';
  const [caseId, subjectId, processId, activityId, segmentId, userId] = await Promise.all([
    firstId(admin, '/api/cases/'),
    firstId(admin, '/api/subjects/'),
    firstId(admin, '/api/processes/'),
    firstId(admin, '/api/outstanding-activities/'),
    firstId(admin, '/api/segments/'),
    firstId(admin, '/api/users/'),
  ]);
  const paymentId = await firstKey(admin, '/api/payments/');
  return [
    '/dashboard',
    '/cases',
    '/cases/add',
    `/cases/${caseId}`,
    `/cases/${caseId}/archive`,
    '/subjects',
    '/subjects/add',
    '/subjects/duplicates',
    `/subjects/${subjectId}`,
    `/subjects/${subjectId}/archive`,
    '/processes',
    '/processes/add',
    `/processes/${processId}`,
    `/processes/${processId}/details`,
    `/processes/${processId}/configuration`,
    `/processes/${processId}/requirements`,
    '/outstanding-activities',
    `/outstanding-activities/${activityId}`,
    '/case-activities',
    '/audit-log',
    '/flags',
    '/profile',
    '/support',
    // Customer administration (issue 30)
    '/segments',
    '/segments/add',
    `/segments/${segmentId}`,
    `/segments/${segmentId}/details`,
    `/segments/${segmentId}/users`,
    `/segments/${segmentId}/processes`,
    '/users',
    '/users?tab=roles',
    '/users/add',
    `/users/${userId}`,
    `/users/${userId}/edit`,
    '/customer-account',
    '/subjects/consents',
    '/payments',
    `/payments/${paymentId}`,
    '/payment-settings',
    '/payment-settings/add-payment-method',
    '/no/such/page',
  ];
}

async function ops(): Promise<string[]> {
  const user = 'ops@kestrel.test';
  const [activityId, emailId, customerId, importId, portalPaymentId, productPaymentId] =
    await Promise.all([
      firstId(user, '/api/ops/outstanding-activities/'),
      // The outbox holds an email once an earlier journey sent one (not on a fresh database).
      maybeFirstId(user, '/api/ops/outbox/'),
      firstId(user, '/api/ops/customers/'),
      firstId(user, '/api/ops/imports/'),
      firstId(user, '/api/ops/portal-payments/'),
      firstId(user, '/api/ops/product-payments/'),
    ]);
  const pricebookId = await maybeFirstId(user, `/api/ops/customers/${customerId}/pricebooks/`);
  return [
    '/ops/outstanding-activities',
    '/ops/outstanding-activities?activity_type=dbs-enhanced&assignee=unassigned',
    '/ops/outstanding-activities?older_than_days=1&newer_than_days=3',
    `/ops/outstanding-activities/${activityId}`,
    '/ops/outbox',
    ...(emailId === null ? [] : [`/ops/outbox/${emailId}`]),
    '/ops/dashboard',
    '/ops/customers',
    '/ops/customers/add',
    `/ops/customers/${customerId}`,
    `/ops/customers/${customerId}/edit`,
    `/ops/customers/${customerId}/entitlements`,
    `/ops/customers/${customerId}/users`,
    `/ops/customers/${customerId}/segments`,
    `/ops/customers/${customerId}/pricebooks`,
    `/ops/customers/${customerId}/pricebooks/add`,
    ...(pricebookId === null
      ? []
      : [`/ops/customers/${customerId}/pricebooks/${pricebookId}/edit`]),
    '/ops/imports',
    `/ops/imports/${importId}`,
    '/ops/portal-payments',
    `/ops/portal-payments/${portalPaymentId}`,
    '/ops/product-payments',
    `/ops/product-payments/${productPaymentId}`,
    '/ops/maintenance',
  ];
}

const subject = async () => ['/s/dashboard', '/s/cases', '/s/profile', '/s/no/such/page'];

const audiences: [string, string, () => Promise<string[]>][] = [
  ['product', 'admin@acme.test', product],
  ['ops', 'ops@kestrel.test', ops],
  ['subject', 'subject@example.test', subject],
];

describe('operations staff', () => {
  // First in the file: this is the operations user's one sign-in (the helper keeps it).
  it('land on their dashboard, not an empty customer dashboard', async () => {
    const { context, page } = await signedIn(browser, 'ops@kestrel.test', { viewport: WIDE });
    expect(place(page)).toBe('/ops/dashboard');
    await page.getByRole('heading', { name: 'Operations dashboard' }).waitFor();
    await context.close();
  });
});

// Each audience's screens in parts of a few minutes each (one part was past 8 minutes on CI).
const PARTS = 3;
const runs = (['light', 'dark'] as const).flatMap((scheme) =>
  Array.from({ length: PARTS }, (_, part) => [scheme, part + 1] as const),
);

describe.each(audiences)('every %s screen', (audience, user, screens) => {
  it.each(runs)(
    'has no accessibility violations in %s (part %i)',
    async (scheme, part) => {
      const paths = (await screens()).filter((_, i) => i % PARTS === part - 1);
      if (paths.length === 0) return;
      await setDarkMode(user, scheme === 'dark');
      try {
        const { context, page } = await signedIn(browser, user, { viewport: WIDE });
        const found: Record<string, unknown> = {};
        for (const path of paths) {
          await page.goto(path);
          await settle(page);
          expect(
            await page.evaluate(() => document.documentElement.dataset.mantineColorScheme),
            path,
          ).toBe(scheme);
          const violations = await axe(page);
          if (violations.length > 0) found[path] = violations;
          const name = `every-${audience}-${path.replace(/\W+/g, '-').replace(/^-|-$/g, '')}`;
          await screenshot(page, `${name}-${scheme}-1280`);
        }
        expect(found).toEqual({});
        await context.close();
      } finally {
        await setDarkMode(user, false);
      }
    },
    300_000,
  );
});

describe('the dark brand buttons of the second brand', () => {
  it('pass contrast on the case list and a case', async () => {
    const host = '127.0.0.1';
    const user = 'admin@acme.test';
    const caseId = await firstId(user, '/api/cases/');
    await setDarkMode(user, true, host);
    try {
      const { context, page } = await signedIn(browser, user, { host, viewport: WIDE });
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
    const admin = await signedIn(browser, 'admin@acme.test', { viewport: WIDE });
    for (const path of ['/cases', '/case-activities', '/outstanding-activities']) {
      await admin.page.goto(path);
      await settle(admin.page);
      expect(await admin.page.locator('[data-state]').count(), path).toBeGreaterThan(0);
      expect(await truncatedBadges(admin.page), path).toEqual([]);
    }
    await admin.context.close();
    const ops = await signedIn(browser, 'ops@kestrel.test', { viewport: WIDE });
    await ops.page.goto('/ops/outstanding-activities');
    await settle(ops.page);
    expect(await ops.page.locator('[data-state]').count()).toBeGreaterThan(0);
    expect(await truncatedBadges(ops.page)).toEqual([]);
    await ops.context.close();
  });

  it('stack their rows on a phone, with every column and the state in view', async () => {
    const { context, page } = await signedIn(browser, 'admin@acme.test', { viewport: PHONE });
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
    const { context, page } = await signedIn(browser, 'admin@acme.test', { viewport: WIDE });
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
    const { context, page } = await signedIn(browser, 'admin@acme.test', { viewport: WIDE });
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
    const { context, page } = await signedIn(browser, 'admin@acme.test', { viewport: WIDE });
    await page.goto('/no/such/page');
    await page.getByTestId('not-found').waitFor();
    await page.getByTestId('user-menu').waitFor();
    expect(await page.locator('aside[aria-label^="About "]').count()).toBe(0);
    await context.close();
  });

  it("gives each public page its own first heading, not the brand's tagline", async () => {
    const { context, page } = await newPage(browser, { viewport: WIDE });
    for (const path of ['/login', '/signup', '/auth/password-reset', '/no/such/page']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const first = page.getByRole('heading').first();
      expect(await first.evaluate((h) => h.tagName), path).toBe('H1');
    }
    await context.close();
  });

  it('shows the app for an address with doubled slashes', async () => {
    const { context, page } = await newPage(browser, { viewport: WIDE });
    await page.goto(`${baseUrl()}//login`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(place(page)).toBe('/login');
    await context.close();
  });
});
