import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consent, page as listPage, subjectCase } from '../src/features/subject/fixtures';
import { CARE_WORKER_CHECKS, EVERY_CHECK, newWorld, type World } from './fixtures';
import { axeClean, DESKTOP, launch, newPage } from './helpers';

// A person invited by an employer, on a phone: opens the invitation from the email (the local
// outbox), claims the account, gives a date of birth and agrees to the terms, and lands on the
// dashboard of their checks. Then the subject account screens, at phone and desktop widths.
// Writes (a case and an invitation, a subject's profile): on a world of its own (e2e/fixtures.ts),
// never the demo users other files sign in as. Its subject is set up as the demo's
// subject@example.test is: a care worker case, and a case needing every check with the demo
// case's case data, half filled in. Screenshots in /tmp/shots/subject-account/.

const PHONE = { width: 360, height: 780 };
const stamp = Date.now();
const email = `pat.invited.${stamp}@example.test`;
const password = 'Kestrel-pat-Invited-1';

const shots = '/tmp/shots/subject-account';
mkdirSync(shots, { recursive: true });
const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: join(shots, `${name}.png`), fullPage: false });

let browser: Browser;
let world: World;
let caseId = 0;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    ops: true,
    processes: [
      { name: 'Care worker onboarding', requirements: CARE_WORKER_CHECKS },
      { name: 'Full check (every kind)', requirements: EVERY_CHECK },
    ],
    subjects: [{ key: 'subject', firstName: 'Sam', lastName: 'World' }],
  });
  await world.openCase('Care worker onboarding', 'subject');
  const every = await world.openCase('Full check (every kind)', 'subject');
  await world.caseData(every);
  // How far the demo subject got: basic details done, address history part done.
  const subject = await world.api('subject');
  const progress = await subject.api.patch(`/api/s/case-portal/${every}/`, {
    data: { portal_last_completed_section: 'address-history/1' },
    headers: { 'X-CSRFToken': subject.csrf() },
  });
  expect(progress.status(), await progress.text()).toBe(200);
});
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

/** Every button and button-like link of the main area is at least 44 px high and wide. */
async function smallTargets(page: Page) {
  return page.evaluate(() =>
    [
      ...document.querySelectorAll<HTMLElement>(
        'main button, main a.mantine-Button-root, main [data-testid="subject-case-row"]',
      ),
    ]
      .filter((el) => el.offsetParent !== null)
      .map((el) => ({ text: el.textContent?.trim(), box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.height < 44 || box.width < 44)
      .map(({ text, box }) => `${text} ${Math.round(box.width)}x${Math.round(box.height)}`),
  );
}

/** Nothing sticks out sideways at phone width. */
const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/** Whether the subject API of this build serves the cases (the server side lands separately). */
async function subjectCasesServed(): Promise<boolean> {
  const subject = await world.api('subject');
  return (await subject.api.get('/api/s/cases/')).status() === 200;
}

describe('subject account, from the invitation', () => {
  it('an open case for a new person emails the invitation', async () => {
    const admin = await world.api('admin');
    const processes = await (await admin.api.get('/api/processes/')).json();
    const process = (processes.results as { id: number; name: string }[]).find(
      (p) => p.name === 'Care worker onboarding',
    )?.id;
    expect(process, JSON.stringify(processes)).toBeTruthy();
    const res = await admin.api.post('/api/cases/', {
      data: {
        process,
        new_subject: { first_name: 'Pat', middlename: '', last_name: 'Invited', email },
      },
      headers: { 'X-CSRFToken': admin.csrf() },
    });
    expect(res.status(), await res.text()).toBe(201);
    caseId = (await res.json()).id;
    expect(caseId).toBeGreaterThan(0);
  });

  let invitation = '';
  it('operations find the invitation in the outbox', async () => {
    const ops = await world.api('ops');
    const mails = async () =>
      (await ops.api.get('/api/ops/outbox/', { params: { to: email } })).json();
    await expect.poll(async () => (await mails()).count).toBeGreaterThan(0);
    const text: string = (await mails()).results[0]?.text ?? '';
    const link = /https?:\/\/\S+\/auth\/claim-account\?token=\S+/.exec(text)?.[0];
    expect(link, text).toBeTruthy();
    const { pathname, search } = new URL(link ?? '');
    invitation = `${pathname}${search}`;
  });

  it('claims the account on a phone, completes the profile and sees the dashboard', async () => {
    const { context, page } = await newPage(browser, { viewport: PHONE });
    await page.goto(invitation);
    await page.getByRole('heading', { name: 'Claim your account' }).waitFor();
    expect(await page.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      '/login?next=%2Fs%2Fdashboard&subject=y',
    );
    expect(await overflows(page)).toBe(false);
    expect(await axeClean(page)).toEqual([]);
    await screenshot(page, 'subject-claim-phone');
    await page.locator('input[name="password"]').fill(password);
    await page.locator('input[name="confirm"]').fill(password);
    await page.getByRole('button', { name: 'Claim account' }).click();

    // The navigation rules ask for the date of birth and the terms first, then go on.
    await page.waitForURL((url) => url.pathname === '/s/complete-profile');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/s/dashboard');
    await page.getByRole('button', { name: 'Continue' }).click();
    const summary = page.getByTestId('error-summary');
    await summary.waitFor();
    expect(await summary.getByRole('link').allTextContents()).toEqual([
      'Date of birth: Required',
      'Terms of use: Please confirm',
    ]);
    await summary.getByRole('link', { name: 'Date of birth: Required' }).click();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Date of birth: year',
    );
    expect(await axeClean(page)).toEqual([]);
    await screenshot(page, 'subject-complete-profile-errors-phone');
    await page.getByLabel('Date of birth: year').selectOption('1992');
    await page.getByLabel('Date of birth: month').selectOption('6');
    await page.getByLabel('Date of birth: day').selectOption('9');
    await page.getByRole('checkbox').check();
    expect(await smallTargets(page)).toEqual([]);
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL((url) => url.pathname === '/s/dashboard');
    await page.getByRole('heading', { name: 'Hello Pat' }).waitFor();
    if (await subjectCasesServed()) {
      const card = page.getByTestId('subject-case').first();
      await card.waitFor();
      expect(await card.textContent()).toContain(world.customer.name);
      const next = card.getByTestId('next-step');
      expect(await next.getAttribute('href')).toMatch(
        new RegExp(`^/s/case-portal/${caseId}/[a-z-]+$`),
      );
    } else {
      // Without the subject API (it lands from another branch) the list says it failed.
      await page.getByText('The cases could not be loaded').waitFor();
      console.info('subject-account: /api/s/cases/ is not served by this build');
    }
    expect(await overflows(page)).toBe(false);
    expect(await smallTargets(page)).toEqual([]);
    expect(await axeClean(page)).toEqual([]);
    await screenshot(page, 'subject-dashboard-phone');
    const profile = await (await context.request.get('/api/user/')).json();
    expect(profile).toMatchObject({ dob: '1992-06-09', first_name: 'Pat' });
    expect(profile.terms_agreed_at).toBeTruthy();
    await context.close();
  });
});

describe('subject account screens (phone and desktop)', () => {
  const screens: [string, string][] = [
    ['/s/dashboard', 'dashboard'],
    ['/s/cases', 'cases'],
    ['/s/consents', 'consents'],
    ['/s/dvla-reconsent', 'dvla-reconsent'],
    ['/s/profile', 'profile'],
  ];
  for (const [viewport, size] of [
    [PHONE, 'phone'],
    [DESKTOP, 'desktop'],
  ] as const) {
    it.each(screens)(
      `%s at ${size} width: axe clean, 44 px targets, no overflow`,
      async (path, name) => {
        const { context, page } = await world.signedIn(browser, 'subject', { viewport });
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        await page.locator('[aria-busy="true"], .mantine-Skeleton-root').first().waitFor({
          state: 'detached',
        });
        expect(await overflows(page), path).toBe(false);
        expect(await smallTargets(page), path).toEqual([]);
        expect(await axeClean(page), path).toEqual([]);
        await screenshot(page, `subject-${name}-${size}`);
        await context.close();
      },
    );
  }

  it('the profile keeps the date of birth read-only once used, and saves a phone number', async () => {
    const { context, page } = await world.signedIn(browser, 'subject', { viewport: PHONE });
    await page.goto('/s/profile');
    await page.getByRole('heading', { name: 'Your profile' }).waitFor();
    const me = await (await context.request.get('/api/user/')).json();
    if (me.can_change_dob) await page.getByLabel('Date of birth: year').waitFor();
    else await page.getByTestId('dob-locked').waitFor();
    await page.getByLabel('Phone number').fill('07911 123457');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Successfully updated profile').first().waitFor();
    const after = await (await context.request.get('/api/user/')).json();
    expect(after.phone_number).toBe('+447911123457');
    await page.getByLabel(/^First name/).fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page
      .getByTestId('error-summary')
      .getByRole('link', { name: /First name/ })
      .waitFor();
    await screenshot(page, 'subject-profile-errors-phone');
    await context.close();
  });
});

// The subject API's answers (contracts subjectCaseOut, subjectConsentOut) served from fixtures
// through the browser, so the screens are seen filled in whether or not this build's server
// has the subject endpoints yet: a case to finish, a submitted one, a consent due for renewal.
describe('subject account screens with cases and consents (answers from fixtures)', () => {
  const cases = [
    subjectCase(),
    subjectCase({
      id: 12,
      customer: { id: 2, name: 'Northgate Borough Council' },
      submitted: true,
      state: 'in-progress',
      state_display: 'In progress',
      needs: [],
      next_step: null,
      progress: { completed: 9, total: 9, percent: 100, next: 'done' },
    }),
  ];
  const consents = [
    consent({ status: 'expiring' }),
    consent({
      id: 32,
      kind: 'dbs-application',
      kind_display: 'Criminal record check declaration and consent',
      activity_type_name: 'Enhanced DBS check',
      expires_at: null,
    }),
  ];
  async function filled(viewport: { width: number; height: number }) {
    const opened = await world.signedIn(browser, 'subject', { viewport });
    // (not /api/s/cases/country-map/, which the bootstrap loads)
    await opened.page.route(/\/api\/s\/(cases\/(\d+\/)?|consents\/)(\?.*)?$/, async (route) => {
      const path = new URL(route.request().url()).pathname;
      const body =
        path === '/api/s/cases/'
          ? listPage(cases)
          : path.startsWith('/api/s/cases/')
            ? cases.find((c) => path === `/api/s/cases/${c.id}/`)
            : listPage(consents);
      await route.fulfill({ status: body ? 200 : 404, json: body ?? { detail: 'Not found.' } });
    });
    return opened;
  }
  const shots: [string, string, string][] = [
    ['/s/dashboard', 'Hello Sam', 'dashboard-filled'],
    ['/s/cases/11', 'Checks for Acme Care', 'case-detail'],
    ['/s/consents', 'Your consents', 'consents-filled'],
    ['/s/dvla-reconsent', 'Driving licence consent', 'dvla-reconsent-due'],
  ];
  for (const [viewport, size] of [
    [PHONE, 'phone'],
    [DESKTOP, 'desktop'],
  ] as const) {
    it.each(shots)(`%s at ${size} width`, async (path, heading, name) => {
      const { context, page } = await filled(viewport);
      await page.goto(path);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.locator('.mantine-Skeleton-root').first().waitFor({ state: 'detached' });
      if (path === '/s/dashboard') {
        await page.getByTestId('dvla-prompt').waitFor();
        expect(await page.getByTestId('next-step').count()).toBe(1);
        expect(await page.getByTestId('next-step').getAttribute('href')).toBe(
          '/s/case-portal/11/address-history',
        );
      }
      expect(await overflows(page), path).toBe(false);
      expect(await smallTargets(page), path).toEqual([]);
      expect(await axeClean(page), path).toEqual([]);
      await screenshot(page, `subject-${name}-${size}`);
      await context.close();
    });
  }

  it('withdraws a consent through the confirmation dialog', async () => {
    const { context, page } = await filled(PHONE);
    const posts: string[] = [];
    await page.route(/\/api\/s\/consents\/\d+\/withdraw\/$/, async (route) => {
      posts.push(new URL(route.request().url()).pathname);
      await route.fulfill({ status: 200, json: consent({ status: 'withdrawn' }) });
    });
    await page.goto('/s/consents');
    await page.getByRole('button', { name: /Withdraw consent: Driving licence/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Withdraw this consent?' });
    await dialog.waitFor();
    // once the dialog has faded in (half-way, its colours are half-way too: axe's contrast rule)
    await dialog.evaluate(
      (el) =>
        new Promise<void>((done) => {
          const opaque = () => {
            for (let e: Element | null = el; e; e = e.parentElement)
              if (getComputedStyle(e).opacity !== '1') return false;
            return true;
          };
          const check = () => {
            const still = document.getAnimations().some((a) => a.playState === 'running');
            if (opaque() && !still) done();
            else requestAnimationFrame(check);
          };
          check();
        }),
    );
    expect(await axeClean(page)).toEqual([]);
    await screenshot(page, 'subject-consent-withdraw-phone');
    await dialog.getByRole('button', { name: 'Withdraw consent' }).click();
    await page.getByText('Consent withdrawn').first().waitFor();
    expect(posts).toEqual(['/api/s/consents/31/withdraw/']);
    await context.close();
  });
});
