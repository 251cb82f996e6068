import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Locator, type Page, request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import { type Api, axeClean, baseUrl, launch, loginUi, newPage, send, steady } from './helpers';

// The DBS update service result panel (activity kind dbs-update) for the three audiences:
// customer staff, the subject (the restricted view) and operations. On a world of its own
// (e2e/fixtures.ts: a customer like Acme, not in demo mode, with its staff and its own operations
// user, so no demo user's cases, processes or dark mode change): three cases of a new subject
// (invited, account claimed), each with one update service check (a process operations make for
// the test). The
// subject submits the certificate details of the first through the portal at phone
// width, and of the other two through the subject API; the check engine (job queue) asks the
// simulated update service, whose answer follows the certificate number's first digit
// (providers/dbs-update-service/README.md): 2 registered (blank, no new information), 1 no match
// (not registered), 5 a status the service does not document ('Unexpected status.').
// Operations add a note to the first; the customer and the subject must not see it.
// Screenshots at 360 and 1280 px, light and dark (the profile's dark mode), in
// /tmp/shots/update-service-panel/.

const stamp = Date.now();
const email = `update.service.${stamp}@example.test`;
const password = 'Kestrel-Update-E2e-2026';
const shots = '/tmp/shots/update-service-panel';
mkdirSync(shots, { recursive: true });

const WIDTHS = [
  ['360', { width: 360, height: 780 }],
  ['1280', { width: 1280, height: 900 }],
] as const;
const SCHEMES = ['light', 'dark'] as const;
type Scheme = (typeof SCHEMES)[number];

const DASH = '—';
const PRINT_DATE = '2nd Jun 2025'; // the simulator's print date (2025-06-02), 'do MMM y'
const NOTE = `Phoned Colin Counter about the certificate ${stamp}.`;

/** The spec's texts of each answer (status, names, print date, result). */
const EXPECTED = {
  registered: {
    Status: 'Registered',
    Forename: 'SIMULATED',
    Surname: 'MARSH',
    'Print date': PRINT_DATE,
    Result:
      'This certificate did not reveal any information and remains current as no further information has been found since its issue.',
  },
  'not-registered': {
    Status: 'Not registered',
    Forename: DASH,
    Surname: DASH,
    'Print date': DASH,
    Result: 'No match found.',
  },
  unexpected: {
    Status: 'Pending',
    Forename: 'SIMULATED',
    Surname: 'MARSH',
    'Print date': PRINT_DATE,
    Result: 'Unexpected status.',
  },
} as const;
type Answer = keyof typeof EXPECTED;

const CERTIFICATES: Record<Answer, string> = {
  registered: '200000000001',
  'not-registered': '100000000001',
  unexpected: '500000000001',
};
const STATES: Record<Answer, string> = {
  registered: 'ca-complete',
  'not-registered': 'ca-complete',
  unexpected: 'ca-pending-activity-decision',
};

let browser: Browser;
let world: World;
/** The world's operations user's name (Ops World), which the restricted views must not show. */
const OPS_NAME = 'Ops World';
let admin: Api;
let ops: Api;
let subject: Api;
const cases = {} as Record<Answer, { caseId: number; activityId: number }>;

const step = (what: string) => console.log(new Date().toISOString(), 'update-service:', what);

const setDark = (who: Api, dark: boolean) => send(who, 'put', '/api/user/', { dark_mode: dark });

const activityState = async (id: number): Promise<string> =>
  (await (await admin.api.get(`/api/case-activities/${id}/`)).json()).state;

/** The panel's facts, label to value (components/fact.tsx: a label <p>, then its value). */
const facts = (panel: Locator) =>
  panel.evaluate((el) =>
    Object.fromEntries(
      [...el.querySelectorAll('p')].map((p) => [
        p.textContent ?? '',
        p.nextElementSibling?.textContent ?? '',
      ]),
    ),
  );

/** Horizontal overflow: of the page, and of any element of the panel (its text must wrap). */
const overflow = (page: Page, panel: Locator) =>
  Promise.all([
    page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    ),
    panel.evaluate((el) =>
      [el, ...el.querySelectorAll('*')]
        .filter(
          (e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > innerWidth,
        )
        .map((e) => `${e.tagName} ${e.textContent?.slice(0, 40)}`),
    ),
  ]);

/**
 * One audience's case page of `answer` in the current scheme: the panel with the answer's texts,
 * nothing of operations for the others, then per width no overflow and a screenshot (and axe at
 * 360 px for the registered answer).
 */
async function look(
  page: Page,
  audience: 'customer' | 'subject' | 'ops',
  answer: Answer,
  scheme: Scheme,
  widths: readonly (typeof WIDTHS)[number][] = WIDTHS,
) {
  const { caseId, activityId } = cases[answer];
  await page.goto(audience === 'subject' ? `/s/cases/${caseId}` : `/cases/${caseId}`);
  // The activity's card on the case page (the subject's page lists the case's one check).
  const card =
    audience === 'subject'
      ? page.getByTestId('subject-activity')
      : page
          .getByTestId('case-activity')
          .filter({ has: page.locator(`[data-activity-id="${activityId}"]`) });
  const panel = card.getByTestId('update-service-panel');
  await panel.waitFor();
  expect(
    await page.evaluate(() => document.documentElement.dataset.mantineColorScheme),
    `${audience} ${scheme}`,
  ).toBe(scheme);
  expect(await facts(panel), `${audience} ${answer}`).toEqual(EXPECTED[answer]);
  const result = card.getByTestId('activity-result');
  expect(await result.getAttribute('data-audience')).toBe(audience);
  // The page's text but its 'Who saw what' record (issue 34): that record names every viewer,
  // operations staff included, to the customer's audit readers, as the audit log does.
  const text = await page.locator('main').evaluate((main) => {
    const copy = main.cloneNode(true) as HTMLElement;
    for (const views of copy.querySelectorAll('[data-testid="case-views"]')) views.remove();
    return copy.textContent ?? '';
  });
  if (audience === 'ops') {
    await card.getByTestId('notes-accordion').waitFor();
  } else {
    // The restricted views: no notes accordion, no note, no other person's name.
    expect(await page.getByTestId('notes-accordion').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Notes', exact: true }).count()).toBe(0);
    expect(await page.getByRole('textbox', { name: 'Notes', exact: true }).count()).toBe(0);
    for (const secret of [NOTE, 'Colin Counter', 'Olivia Ops', OPS_NAME])
      expect(text).not.toContain(secret);
    // Nor in what the page reads: the customer's activity and the subject's restricted result.
    const body = await (
      await page.request.get(
        audience === 'subject'
          ? `/api/s/case-activities/${activityId}/result/`
          : `/api/case-activities/${activityId}/`,
      )
    ).json();
    expect(body, JSON.stringify(body)).not.toHaveProperty('notes');
    if (audience === 'subject') expect(body).not.toHaveProperty('processing_data');
    expect(JSON.stringify(body)).not.toContain('Colin Counter');
  }
  for (const [width, viewport] of widths) {
    await page.setViewportSize(viewport);
    await steady(page);
    // The card in the middle of the window (the case pages are long: the case data follows).
    await card.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const [pageOverflow, panelOverflow] = await overflow(page, panel);
    expect(pageOverflow, `${audience} ${answer} ${width} ${scheme}`).toBeLessThanOrEqual(0);
    expect(panelOverflow, `${audience} ${answer} ${width} ${scheme}`).toEqual([]);
    if (width === '360' && answer === 'registered') {
      expect(await axeClean(page), `${audience} ${scheme}`).toEqual([]);
    }
    await page.screenshot({
      path: join(shots, `${audience}-${answer}-${width}-${scheme}.png`),
    });
  }
}

/** Every answer in light (the registered one at both widths), then the registered one dark. */
async function allViews(page: Page, who: Api, audience: 'customer' | 'subject' | 'ops') {
  try {
    for (const scheme of SCHEMES) {
      await setDark(who, scheme === 'dark');
      step(`${audience} ${scheme}`);
      await look(page, audience, 'registered', scheme);
      if (scheme === 'light') {
        await look(page, audience, 'not-registered', scheme, [WIDTHS[0]]);
        await look(page, audience, 'unexpected', scheme, [WIDTHS[0]]);
      }
    }
  } finally {
    await setDark(who, false);
  }
}

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({ ops: true });
  [admin, ops] = await Promise.all([world.api('admin'), world.api('ops')]);
});
afterAll(async () => {
  await Promise.all([world?.dispose(), subject?.api.dispose()]);
  await browser?.close();
});

describe('the update service result panel', () => {
  it('shows a real status check to customer staff, the subject and operations', async () => {
    // Operations give the customer a process with only the update service check (it is not in
    // demo mode: its staff cannot choose checks); it opens three cases of a new person.
    const acme: number = (await (await admin.api.get('/api/user/')).json()).customer.id;
    expect(acme).toBe(world.customer.id);
    const opsSession = await ops.api.post('/api/ops/session/', {
      data: { customer: acme },
      headers: { 'X-CSRFToken': ops.csrf() },
    });
    expect(opsSession.status(), await opsSession.text()).toBe(200);
    let opsCsrf: string = (await opsSession.json()).csrf_token ?? ops.csrf();
    ops = { api: ops.api, csrf: () => opsCsrf };
    const processId: number = (
      await send(ops, 'post', '/api/processes/', {
        name: `Update service e2e ${stamp}`,
        send_invitation: true,
        requirements: [{ activity_type: 'dbs-update' }],
      })
    ).id;
    const ended = await ops.api.delete('/api/ops/session/', {
      headers: { 'X-CSRFToken': ops.csrf() },
    });
    expect(ended.status(), await ended.text()).toBe(200);
    opsCsrf = (await ended.json()).csrf_token ?? opsCsrf;
    let subjectId = 0;
    for (const answer of Object.keys(EXPECTED) as Answer[]) {
      const opened = await send(admin, 'post', '/api/cases/', {
        process: processId,
        ...(subjectId
          ? { subject: subjectId }
          : { new_subject: { first_name: 'Robin', middlename: '', last_name: 'Marsh', email } }),
      });
      subjectId = opened.subject?.id ?? subjectId;
      const activityId: number = opened.case_activities?.[0]?.id ?? 0;
      expect(activityId, JSON.stringify(opened)).toBeGreaterThan(0);
      cases[answer] = { caseId: opened.id, activityId };
    }
    expect(subjectId).toBeGreaterThan(0);

    // The new person claims the account from the invitation (found in the outbox).
    const mails = async () =>
      (await ops.api.get('/api/ops/outbox/', { params: { to: email } })).json();
    await expect.poll(async () => (await mails()).count, { timeout: 30_000 }).toBeGreaterThan(0);
    const mail: string = (await mails()).results.at(-1)?.text ?? '';
    const token = /claim-account\?token=(\S+)/.exec(mail)?.[1] ?? '';
    expect(token, mail).not.toBe('');
    const api = await request.newContext({ baseURL: baseUrl() });
    const anonymous = await (await api.get('/api/accounts/check-session/')).json();
    let subjectCsrf: string = anonymous.csrf_token;
    subject = { api, csrf: () => subjectCsrf };
    subjectCsrf = (
      await send(subject, 'post', '/api/user/claim-account/', {
        token: decodeURIComponent(token),
        password,
      })
    ).csrf_token;
    await send(subject, 'put', '/api/user/', { dob: '1990-04-12', terms_agreed: true });

    // The subject sends the first through the portal, at phone width.
    step('portal');
    const s = await newPage(browser, { viewport: WIDTHS[0][1] });
    const sp = s.page;
    await loginUi(sp, email, password);
    await sp.waitForURL((url) => url.pathname === '/s/dashboard');
    const h1 = sp.getByRole('heading', { level: 1 });
    await sp.goto(`/s/case-portal/${cases.registered.caseId}`);
    await expect.poll(() => h1.textContent(), { timeout: 15_000 }).toBe('Welcome');
    await sp.getByRole('button', { name: 'Start' }).click();
    await expect.poll(() => h1.textContent(), { timeout: 15_000 }).toBe('DBS update service');
    const section = sp.getByTestId('portal-section');
    await section.locator('.mantine-Skeleton-root').first().waitFor({ state: 'detached' });
    await section
      .getByRole('textbox', { name: /^Certificate number/ })
      .fill(CERTIFICATES.registered);
    await section.getByRole('textbox', { name: /^Last name on the certificate/ }).fill('Marsh');
    await section.getByLabel('Date of birth on the certificate: year').selectOption('1990');
    await section.getByLabel('Date of birth on the certificate: month').selectOption('4');
    await section.getByLabel('Date of birth on the certificate: day').selectOption('12');
    await section.getByRole('checkbox', { name: /I consent to status checks/ }).check();
    await sp.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => h1.textContent(), { timeout: 15_000 }).toBe('Check your answers');
    await sp.getByRole('button', { name: 'Submit' }).click();
    await expect
      .poll(() => h1.textContent(), { timeout: 15_000 })
      .toBe('Thank you, your answers have been submitted');

    // The other two through the subject API (the same calls the section makes).
    for (const answer of ['not-registered', 'unexpected'] as const) {
      const { caseId, activityId } = cases[answer];
      await send(subject, 'post', '/api/s/case-dbs-update-details/', {
        case: caseId,
        certificate_number: CERTIFICATES[answer],
        surname: 'Marsh',
        dob: '1990-04-12',
      });
      await send(subject, 'post', '/api/s/consents/', {
        case: caseId,
        case_activity: activityId,
        kind: 'dbs-update',
      });
      await send(subject, 'patch', `/api/s/case-portal/${caseId}/`, {
        portal_last_completed_section: 'dbs-update',
      });
      await send(subject, 'post', `/api/s/case-portal/${caseId}/submit/`, {});
    }
    // The engine's status checks (jobs): a documented status completes the check, any other
    // leaves it for a decision.
    for (const answer of Object.keys(EXPECTED) as Answer[]) {
      await expect
        .poll(() => activityState(cases[answer].activityId), { timeout: 30_000, message: answer })
        .toBe(STATES[answer]);
    }
    const done = await (
      await admin.api.get(`/api/case-activities/${cases.registered.activityId}/`)
    ).json();
    expect(done.result_data).toMatchObject({
      certificate_status: 'BLANK_NO_NEW_INFO',
      certificate_number: CERTIFICATES.registered,
      forename: 'SIMULATED',
      surname: 'MARSH',
      print_date: '2025-06-02',
    });

    // Operations, in the customer's workspace (the customer picker): notes, which they add to.
    step('ops');
    const o = await world.signedIn(browser, 'ops', { viewport: WIDTHS[1][1] });
    const op = o.page;
    await op.getByTestId('customer-picker').filter({ visible: true }).click();
    await op.getByRole('option', { name: world.customer.name }).click();
    await op.waitForURL((url) => url.pathname === '/dashboard');
    await op.goto(`/cases/${cases.registered.caseId}`);
    const opsCard = op.locator(`[data-activity-id="${cases.registered.activityId}"]`);
    await opsCard.getByTestId('update-service-panel').waitFor();
    await opsCard.getByRole('button', { name: 'Notes', exact: true }).click();
    const notes = opsCard.getByRole('textbox', { name: 'Notes', exact: true });
    await notes.fill(NOTE);
    await expect.poll(() => notes.inputValue()).toBe(NOTE);
    await opsCard.getByRole('button', { name: 'Save', exact: true }).click();
    // saved (the toast is result-panels.test's; on a loaded machine it may come and go first)
    await expect
      .poll(
        async () =>
          (
            await (
              await op.request.get(`/api/case-activities/${cases.registered.activityId}/`)
            ).json()
          ).notes,
        { timeout: 30_000 },
      )
      .toContain(NOTE);
    await allViews(op, ops, 'ops');
    await o.context.close();

    step('customer');
    const c = await world.signedIn(browser, 'admin', { viewport: WIDTHS[1][1] });
    await allViews(c.page, admin, 'customer');
    await c.context.close();

    step('subject');
    await allViews(sp, subject, 'subject');
    await s.context.close();
    step('done');
  }, 300_000);
});
