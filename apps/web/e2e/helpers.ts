import { createHmac } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  chromium,
  type Page,
  request,
} from 'playwright-core';
import { expect, inject } from 'vitest';
import { png } from './test-files';

export const PASSWORD = 'kestrel-demo-2026';
export const MFA_SECRET = 'JBSWY3DPEHPK3PXP';
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The two brands are chosen by host name: localhost and 127.0.0.1. */
export type Host = 'localhost' | '127.0.0.1';
/**
 * The port of this worker's server: the global setup starts one per vitest worker, each on its
 * own fresh database with the demo data, and a worker runs its files one after the other.
 */
export function serverPort(): number {
  const ports = inject('serverPorts');
  const slot = Number(process.env.VITEST_POOL_ID ?? '1') - 1;
  const port = ports[slot % ports.length];
  if (port === undefined) throw new Error('no server started for this worker (global setup)');
  return port;
}
export const baseUrl = (host: Host = 'localhost') => `http://${host}:${serverPort()}`;

/**
 * Screenshots written to files are for people to look at (`npm test` keeps them); with
 * KESTREL_E2E_SCREENSHOTS=0 (what .ci/run sets: nobody looks at CI's) a page skips them, saving
 * the rendering and PNG encoding of a few hundred full pages. A screenshot a test uses (no path)
 * is always taken.
 */
export const writeScreenshots = process.env.KESTREL_E2E_SCREENSHOTS !== '0';

function withoutScreenshotFiles(page: Page): Page {
  const take = page.screenshot.bind(page);
  page.screenshot = (options) => (options?.path ? Promise.resolve(Buffer.alloc(0)) : take(options));
  return page;
}

/**
 * Playwright's own waits (an action, a navigation, waitForURL): 60 s rather than its 30 s. CI runs
 * this suite on a 2-core machine about three times slower than a quiet one, three journeys at a
 * time; a page that takes 10 s there is slow, not broken.
 */
const ACTION_TIMEOUT_MS = 60_000;

export async function launch(): Promise<Browser> {
  const browser = await launchChromium();
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    if (writeScreenshots) return context;
    const newPage = context.newPage.bind(context);
    context.newPage = async () => withoutScreenshotFiles(await newPage());
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    page.setDefaultTimeout(ACTION_TIMEOUT_MS);
    return writeScreenshots ? page : withoutScreenshotFiles(page);
  };
  return browser;
}

function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const DESKTOP = { width: 1366, height: 860 };
export const PHONE = { width: 390, height: 844 };

export async function newPage(
  browser: Browser,
  {
    host = 'localhost',
    viewport = DESKTOP,
  }: { host?: Host; viewport?: { width: number; height: number } } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl(host),
    viewport,
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  const page = await context.newPage();
  return { context, page };
}

/** RFC 6238 code (SHA-1, 30 s, 6 digits) for a base32 secret. */
export function totp(secret: string, at = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secret.replace(/=+$/, '').toUpperCase())
    bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)?.map((b) => Number.parseInt(b, 2)) ?? []);
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0xf;
  const code = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(code).padStart(6, '0');
}

/** Signs in through the login form. */
export async function loginUi(page: Page, username: string, password = PASSWORD, path = '/login') {
  await page.goto(path);
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** An API client logged in as `username` (for arranging state: maintenance windows, profiles). */
/** A signed-in API context and the CSRF token its next write sends. */
export type Api = { api: APIRequestContext; csrf: () => string };

/** A write through the API that must succeed (2xx); its JSON answer. */
export async function send(who: Api, method: 'post' | 'patch' | 'put', url: string, data: object) {
  const res = await who.api[method](url, { data, headers: { 'X-CSRFToken': who.csrf() } });
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBeLessThan(300);
  return res.json();
}

/** An identity document of `type` (one photographed page) uploaded to a case through `base`. */
export async function uploadIdentityPage(
  who: Api,
  base: '/api/' | '/api/s/',
  caseId: number,
  type: string,
) {
  const res = await who.api.post(`${base}case-documents/`, {
    headers: { 'X-CSRFToken': who.csrf() },
    multipart: {
      case: String(caseId),
      document_type: type,
      collector: 'identity',
      file: { name: `${type}.png`, mimeType: 'image/png', buffer: png() },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
}

export async function apiAs(
  username: string,
  host: Host = 'localhost',
  password = PASSWORD,
): Promise<Api> {
  const api = await request.newContext({ baseURL: baseUrl(host) });
  const first = await (await api.get('/api/accounts/check-session/')).json();
  let csrf: string = first.csrf_token;
  const body: Record<string, string> = { username, password };
  if (username === 'mfa@acme.test') body.totp = totp(MFA_SECRET);
  const res = await api.post('/api/accounts/login/', {
    data: body,
    headers: { 'X-CSRFToken': csrf },
  });
  expect(res.status(), await res.text()).toBe(200);
  csrf = (await res.json()).csrf_token;
  return { api, csrf: () => csrf };
}

/**
 * Rules axe-core marks experimental (so its tags alone leave them out) that every run still
 * checks: label-content-name-mismatch is WCAG 2.5.3, 'Label in Name' (issue 26).
 */
export const AXE_EXTRA_RULES = ['label-content-name-mismatch'] as const;

/**
 * axe-core with the WCAG 2.1 A and AA rules and AXE_EXTRA_RULES; returns the violations
 * (expected: none).
 */
export async function axe(page: Page) {
  // Legacy mode runs axe.run in the page itself, same-origin frames included (the app has no
  // other); the default runs a partial in each frame, then opens a blank tab, evaluates axe-core
  // there again and finishes in it: the same violations, at two to three times the time (a case
  // page on a loaded 2-core machine: 16 s against 5 s).
  const result = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({
      rules: Object.fromEntries(AXE_EXTRA_RULES.map((rule) => [rule, { enabled: true }])),
      // only the violations come back in full (passes and the rest: one node each), which
      // spares the page and the test process most of the result's serialising
      resultTypes: ['violations'],
    })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    nodes: v.nodes
      .map((n) => n.target.join(' ') + (process.env.AXE_DEBUG ? ` ${n.failureSummary}` : ''))
      .slice(0, 5),
  }));
}

/** `axe` once the toasts are gone (their close buttons belong to the shell, not the screen). */
export async function axeClean(page: Page) {
  for (const close of await page.locator('.mantine-Notification-closeButton').all()) {
    await close.click().catch(() => undefined);
  }
  await expect.poll(() => page.locator('.mantine-Notification-root').count()).toBe(0);
  return axe(page);
}

/**
 * The screen at 1280 px and on a 360 px phone: axe clean at both (unless `axe: false`), a full-page
 * screenshot `{name}-{1280|360}.png` of each in `dir` to look at; the viewport is then DESKTOP again.
 */
export async function lookAtWidths(
  page: Page,
  dir: string,
  name: string,
  { axe: check = true }: { axe?: boolean } = {},
) {
  for (const [size, viewport] of [
    ['1280', { ...DESKTOP, width: 1280 }],
    ['360', { ...PHONE, width: 360 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await steady(page);
    if (check) expect(await axeClean(page), `${name} at ${size}`).toEqual([]);
    await page.screenshot({ path: join(dir, `${name}-${size}.png`), fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
  // drawn again at the desktop width before the test goes on (a form typed into mid-layout)
  await steady(page);
}

/**
 * The page has drawn what its last change (a new viewport, a click) brought: a few frames later,
 * no transition or finite animation is still running (a loader's endless spin is not waited for).
 * At most about a second: a page that keeps animating is looked at as it is then.
 */
export async function steady(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        const until = performance.now() + 1_000;
        let frames = 0;
        const running = () =>
          document
            .getAnimations()
            .some(
              (a) =>
                a.playState === 'running' &&
                Number.isFinite(Number(a.effect?.getComputedTiming().endTime)),
            );
        const next = () => {
          frames += 1;
          if ((frames >= 3 && !running()) || performance.now() > until) done();
          else requestAnimationFrame(next);
        };
        requestAnimationFrame(next);
      }),
  );
}

/** Whom a screen is looked at as: an API session, or a user name (signed in for the call). */
export type Viewer = Api | string;

/** One API session per user name and host for `setDark`, signed in at its first use. */
const viewers = new Map<string, Promise<Api>>();
function viewerApi(username: string): Promise<Api> {
  const key = `${baseUrl()} ${username}`;
  let as = viewers.get(key);
  if (!as) {
    as = apiAs(username);
    viewers.set(key, as);
    // a failed sign-in is not kept: the next call tries again
    as.catch(() => viewers.delete(key));
  }
  return as;
}

/** Sets the user's profile dark mode (the app follows it from the next page load). */
export async function setDark(who: Viewer, dark: boolean): Promise<void> {
  const put = async (as: Api) =>
    as.api.put('/api/user/', {
      data: { dark_mode: dark },
      headers: { 'X-CSRFToken': as.csrf() },
    });
  let res = await put(typeof who === 'string' ? await viewerApi(who) : who);
  if (typeof who === 'string' && (res.status() === 401 || res.status() === 403)) {
    // the kept session was ended (a sign-out everywhere): sign in again
    viewers.delete(`${baseUrl()} ${who}`);
    res = await put(await viewerApi(who));
  }
  expect(res.status(), await res.text()).toBe(200);
}

/** The page drawn: its first level-1 heading shown, the network quiet, no skeleton left. */
export async function settle(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
  await expect.poll(() => page.locator('.mantine-Skeleton-root').count()).toBe(0);
}

/** The colour scheme the page is drawn in ('light', 'dark'; undefined before the app starts). */
const colorScheme = (page: Page) =>
  page.evaluate(() => document.documentElement.dataset.mantineColorScheme);

/** Reloads the page in `scheme` (the viewer's dark mode) and waits until it is drawn in it. */
export async function reloadInScheme(
  page: Page,
  who: Viewer,
  scheme: 'light' | 'dark',
): Promise<void> {
  await setDark(who, scheme === 'dark');
  await page.reload();
  await settle(page);
  await expect.poll(() => colorScheme(page)).toBe(scheme);
}

/**
 * The screen light and dark at its viewport (1280 px in the callers): axe clean in both, a
 * full-page screenshot `{name}-1280-{scheme}.png` of each in `dir`; then light again, reloaded.
 * A screen already drawn light is looked at as it is (no reload first).
 */
export async function lookLightAndDark(page: Page, who: Viewer, dir: string, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    if (scheme === 'dark' || (await colorScheme(page)) !== 'light') {
      await reloadInScheme(page, who, scheme);
    } else {
      await setDark(who, false);
      await settle(page);
    }
    expect(await axeClean(page), `${name} ${scheme}`).toEqual([]);
    await page.screenshot({ path: join(dir, `${name}-1280-${scheme}.png`), fullPage: true });
  }
  await setDark(who, false);
  await page.reload();
  await settle(page);
}

export const screenshotDir = join(import.meta.dirname, 'screenshots');
export async function screenshot(page: Page, name: string) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: false });
}

const sessions = new Map<string, Awaited<ReturnType<BrowserContext['storageState']>>>();

/**
 * A page signed in as `username` (one UI login per user and host per test file, then reused:
 * the server limits login attempts per address).
 */
export async function signedIn(
  browser: Browser,
  username: string,
  {
    host = 'localhost',
    viewport = DESKTOP,
  }: { host?: Host; viewport?: { width: number; height: number } } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const key = `${host} ${username}`;
  const saved = sessions.get(key);
  if (saved) {
    const context = await browser.newContext({
      baseURL: baseUrl(host),
      viewport,
      storageState: saved,
      locale: 'en-GB',
      timezoneId: 'UTC',
    });
    return { context, page: await context.newPage() };
  }
  const { context, page } = await newPage(browser, { host, viewport });
  await loginUi(page, username);
  await page.waitForURL(
    (url) =>
      url.pathname.endsWith('/dashboard') ||
      url.pathname === '/s/complete-profile' ||
      url.pathname === '/ops/outstanding-activities',
  );
  sessions.set(key, await context.storageState());
  return { context, page };
}

/** The pathname and search of the page, e.g. '/login?next=%2Fcases'. */
export const place = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};
