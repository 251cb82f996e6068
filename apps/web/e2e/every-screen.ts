import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, type Host, launch, screenshot, signedIn } from './helpers';

// What every-screen.test.ts (light, and the other screen checks) and every-screen-dark.test.ts
// share: the screens of the three signed-in audiences, found from the demo data, and their check
// in one colour scheme. Two files, so that two workers share the suite's longest work.

let current: Browser | undefined;
/** The file's browser (see `setUpBrowser`). */
export function browser(): Browser {
  if (!current) throw new Error('no browser: call setUpBrowser() in the test file');
  return current;
}

/** Launches the file's browser before its tests; closes it and the API clients after them. */
export function setUpBrowser(): void {
  beforeAll(async () => {
    current = await launch();
  });
  afterAll(async () => {
    for (const c of clients.values()) await (await c).close();
    clients.clear();
    await current?.close();
  });
}

export const WIDE = { width: 1280, height: 860 };

// The API calls ride on a signed-in browser context (its cookies): no sign-in of their own, as
// the server limits sign-ins per address and the whole suite shares one.
interface Client {
  api: APIRequestContext;
  csrf: () => string;
  close: () => Promise<void>;
}
const clients = new Map<string, Promise<Client>>();
async function open(user: string, host: Host): Promise<Client> {
  const { context } = await signedIn(browser(), user, { host });
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

export async function firstId(user: string, path: string): Promise<number> {
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
export async function setDarkMode(user: string, dark: boolean, host: Host = 'localhost') {
  const { api, csrf } = await client(user, host);
  const res = await api.put('/api/user/', {
    data: { dark_mode: dark },
    headers: { 'X-CSRFToken': csrf() },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Waits until the screen has its heading and its data (no skeletons, no pending requests). */
export async function settle(page: Page) {
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

/** The demo's registration portal screens (issue 31), from its first registration, if any. */
async function regPortalScreens(user: string, processId: number): Promise<string[]> {
  const { api } = await client(user);
  const res = await api.get('/api/portal-registrations/?page_size=1');
  const reg = res.ok() ? (await res.json()).results?.[0] : undefined;
  const process = typeof reg?.process_id === 'number' ? reg.process_id : processId;
  return [
    `/processes/${process}/registration-portals`,
    `/processes/${process}/registration-portals/add`,
    ...(typeof reg?.reg_portal_id === 'number'
      ? [`/processes/${process}/registration-portals/${reg.reg_portal_id}/edit`]
      : []),
    '/subjects/registrations',
    ...(typeof reg?.id === 'number' ? [`/portal-registrations/${reg.id}`] : []),
  ];
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
  const regPortals = await regPortalScreens(admin, processId);
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
    // Registration portals and registrations (issue 31)
    ...regPortals,
    '/no/such/page',
  ];
}

/** The operations screens (also looked at on a phone by ops-screens-phone.test.ts). */
export async function ops(): Promise<string[]> {
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
    '/ops/jobs',
    '/ops/jobs?state=',
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

/**
 * The licensing pages of the demo council (issue 32: Northgate Council publishes 'Taxi and private
 * hire' with open portals): the council list, the council, its first open portal's group and
 * sub-group, and the portal. Public addresses; a subject's are the same under /s.
 */
export async function lmsPaths(): Promise<string[]> {
  const { api } = await client('subject@example.test');
  const councils = await (await api.get('/api/lms/public/customers/?page_size=100')).json();
  const council = (councils.results as { id: number; name: string }[]).find(
    (c) => c.name === 'Northgate Council',
  );
  expect(council, 'the demo council publishes licences').toBeDefined();
  const id = council?.id ?? 0;
  const portals = await (
    await api.get(`/api/lms/public/application-portals/?customer=${id}&page_size=1`)
  ).json();
  const portal = portals.results?.[0] as { id: number; group: number; sub_group: number };
  expect(portal, 'the demo council has an open portal').toBeDefined();
  return [
    '/lms/council-list',
    `/lms/${id}`,
    `/lms/${id}/${portal.group}`,
    `/lms/${id}/${portal.group}/${portal.sub_group}`,
    `/application-portals/${portal.id}`,
  ];
}

const subject = async () => [
  '/s/dashboard',
  '/s/cases',
  '/s/profile',
  ...(await lmsPaths()).map((path) => `/s${path}`),
  '/s/no/such/page',
];

/**
 * The council's licence definitions (issue 32), as Northgate Council's administrator: the list,
 * add, the first definition's pages, its first portal, and that portal with an application open.
 */
async function councilDefinitions(): Promise<string[]> {
  const user = 'admin@northgate.test';
  const id = await firstId(user, '/api/lms/definitions/');
  const portalId = await firstId(user, `/api/lms/definitions/${id}/application_portals/`);
  const { api } = await client(user);
  const apps = await api.get(`/api/lms/applications/?portal=${portalId}&page_size=1`);
  const applicationId = apps.ok() ? (await apps.json()).results?.[0]?.id : undefined;
  const portal = `/definitions/${id}/application_portals/${portalId}`;
  return [
    '/definitions',
    '/definitions/add',
    `/definitions/${id}`,
    `/definitions/${id}/details`,
    `/definitions/${id}/requirements`,
    `/definitions/${id}/application-portals`,
    `/definitions/${id}/application_portals/add`,
    portal,
    ...(typeof applicationId === 'number' ? [`${portal}?application=${applicationId}`] : []),
  ];
}

/**
 * The council's licence groups and licences (issue 32), as Northgate Council's administrator:
 * the groups, add, the first group's pages and its first sub-group, the licences (filtered by
 * status, and with the first licence open beside the list).
 */
async function councilLicences(): Promise<string[]> {
  const user = 'admin@northgate.test';
  const licenceId = await firstId(user, '/api/lms/licences/');
  // The first sub-group and its group (the first group by name may have none: a draft).
  const { api } = await client(user);
  const subGroups = await (await api.get('/api/lms/licence-sub-groups/?page_size=1')).json();
  const subGroup = subGroups.results?.[0] as { id: number; group: number } | undefined;
  expect(subGroup, 'the council has a sub-group').toBeDefined();
  const groupId = subGroup?.group;
  const subGroupId = subGroup?.id;
  const group = `/licence-groups/${groupId}`;
  return [
    '/licence-groups',
    '/licence-groups/add',
    group,
    `${group}/details`,
    `${group}/sub-groups`,
    `${group}/sub-groups/add`,
    `${group}/sub-groups/${subGroupId}`,
    '/licences',
    '/licences?status=suspended',
    `/licences?licence=${licenceId}`,
  ];
}

const audiences: [string, string, () => Promise<string[]>][] = [
  ['product', 'admin@acme.test', product],
  ['ops', 'ops@kestrel.test', ops],
  ['subject', 'subject@example.test', subject],
  ['council-definitions', 'admin@northgate.test', councilDefinitions],
  ['council-licences', 'admin@northgate.test', councilLicences],
];

// Each audience's screens in parts of a few minutes each (one part was past 8 minutes on CI).
const PARTS = 3;
const parts = Array.from({ length: PARTS }, (_, part) => part + 1);

/** Every screen of each audience in `scheme`: axe clean, drawn in that scheme. */
export function everyScreenIn(scheme: 'light' | 'dark'): void {
  describe.each(audiences)('every %s screen', (audience, user, screens) => {
    it.each(parts)(
      `has no accessibility violations in ${scheme} (part %i)`,
      async (part) => {
        const paths = (await screens()).filter((_, i) => i % PARTS === part - 1);
        if (paths.length === 0) return;
        await setDarkMode(user, scheme === 'dark');
        try {
          const { context, page } = await signedIn(browser(), user, { viewport: WIDE });
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
}
