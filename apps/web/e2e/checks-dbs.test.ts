import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Locator, type Page, request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CARE_WORKER_CHECKS,
  giveConsents,
  loginApi,
  newWorld,
  WORLD_PASSWORD,
  type World,
} from './fixtures';
import {
  type Api,
  axeClean,
  baseUrl,
  DESKTOP,
  launch,
  loginUi,
  newPage,
  PHONE,
  send,
  steady,
  uploadIdentityPage,
  writeScreenshots,
} from './helpers';

// The criminal-record family end to end (issue 17): an enhanced check with the adults' barred
// list runs from the subject's submission on the portal's Review page, waits for verification and
// countersigning by customer staff, goes to the simulated e-bulk provider, which demands a top-up
// (the applicant's surname starts with TOPUP, see providers/dbs-basic/README.md); the subject pays
// it in the payment portal at phone width through a 3-D Secure challenge, the provider takes the
// application, it moves through its stages as the simulated provider clock advances
// (CHECKS_SIMULATOR_CONTROL, set by the global setup), and its result shows on the case page for
// the customer, operations and the subject.
// Then an adult-first request through its three stages. Case data is filled through the subject
// API to keep it short. Screenshots of each panel go to /tmp/shots/checks-dbs/.
// Writes (a case, its checks, payments, the provider's clock for its check): on a world of its own
// (e2e/fixtures.ts) - a customer with the demo's 'Care worker onboarding' process, its
// administrator and an operations user - never the demo users other files sign in as.

const stamp = Date.now();
const email = `dbs.e2e.${stamp}@example.test`;
const password = 'Kestrel-dbs-E2e-2026';
const shots = '/tmp/shots/checks-dbs';
mkdirSync(shots, { recursive: true });

let browser: Browser;
let world: World;
let admin: Api;
let ops: Api;
let subject: Api;
let caseId = 0;
let enhancedId = 0;

/** A browser page signed in as the new subject (its own password, so not `signedIn`). */
async function subjectPage(viewport = DESKTOP) {
  const session = await newPage(browser, { viewport });
  await loginUi(session.page, email, password);
  await session.page.waitForURL((url) => url.pathname.startsWith('/s/'));
  return session;
}

const step = (what: string) => console.log(new Date().toISOString(), 'checks-dbs:', what);

/** An identity document of `type` (one photographed page) uploaded to the case through `base`. */
const upload = (who: Api, base: '/api/' | '/api/s/', type: string) =>
  uploadIdentityPage(who, base, caseId, type);

/** Screenshots at desktop and phone width (looked at), axe clean at both, buttons 44 px high. */
async function look(page: Page, name: string, panel?: Locator) {
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await steady(page);
    expect(await axeClean(page), `${name} at ${size}`).toEqual([]);
    const small = await page
      .locator('[data-testid="activity-result"] :is(button, a.mantine-Button-root)')
      .evaluateAll((els) =>
        els
          .map((e) => ({ t: e.textContent ?? '', h: e.getBoundingClientRect().height }))
          .filter((e) => e.h > 0 && e.h < 44)
          .map((e) => `${e.t} ${Math.round(e.h)}`),
      );
    expect(small, `${name} at ${size}`).toEqual([]);
    await page.screenshot({ path: join(shots, `${name}-${size}.png`), fullPage: true });
    // the panel alone, readable at full size (a file for people: not in CI, as page screenshots)
    if (panel && writeScreenshots)
      await panel.screenshot({ path: join(shots, `${name}-${size}-panel.png`) });
  }
  await page.setViewportSize(DESKTOP);
}

async function enhanced() {
  const res = await admin.api.get(`/api/case-activities/${enhancedId}/`);
  expect(res.status()).toBe(200);
  return (await res.json()) as {
    state: string;
    result_data: {
      top_up?: { status?: string; payment_id?: string | number | null };
      application?: { reference?: string | null; status?: string | null };
      disclosure?: { status?: string | null };
    };
  };
}

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    ops: true,
    processes: [{ name: 'Care worker onboarding', requirements: CARE_WORKER_CHECKS }],
  });
  admin = await world.api('admin');
  ops = await world.api('ops');
});
afterAll(async () => {
  await subject?.api.dispose();
  await world?.dispose();
  await browser?.close();
});

describe('criminal-record checks end to end', () => {
  it('a new subject of a care worker case, with their account claimed', async () => {
    const processes = await (
      await admin.api.get('/api/processes/', { params: { page_size: 100 } })
    ).json();
    const care = (processes.results as Array<{ id: number; name: string }>).find(
      (p) => p.name === 'Care worker onboarding',
    );
    expect(care, JSON.stringify(processes.results)).toBeTruthy();
    const opened = await send(admin, 'post', '/api/cases/', {
      process: care?.id,
      new_subject: { first_name: 'Dana', middlename: '', last_name: 'Topup', email },
    });
    caseId = opened.id;
    const activities = await (
      await admin.api.get('/api/case-activities/', { params: { case: caseId, page_size: 50 } })
    ).json();
    enhancedId =
      (activities.results as Array<{ id: number; activity_type: string | { code: string } }>).find(
        (a) =>
          (typeof a.activity_type === 'string' ? a.activity_type : a.activity_type.code) ===
          'dbs-enhanced',
      )?.id ?? 0;
    expect(enhancedId, JSON.stringify(activities.results)).toBeGreaterThan(0);

    const mails = async () =>
      (await ops.api.get('/api/ops/outbox/', { params: { to: email } })).json();
    await expect.poll(async () => (await mails()).count, { timeout: 30_000 }).toBeGreaterThan(0);
    const text: string = (await mails()).results[0]?.text ?? '';
    const token = /claim-account\?token=(\S+)/.exec(text)?.[1] ?? '';
    expect(token, text).not.toBe('');
    // the person claims it (not signed in)
    const anonymous = await request.newContext({ baseURL: baseUrl(world.host) });
    const session = await (await anonymous.get('/api/accounts/check-session/')).json();
    await send(
      { api: anonymous, csrf: () => session.csrf_token },
      'post',
      '/api/user/claim-account/',
      {
        token: decodeURIComponent(token),
        password,
      },
    );
    await anonymous.dispose();
    subject = await loginApi(world.host, email, password);
    await send(subject, 'put', '/api/user/', { dob: '1991-03-04', terms_agreed: true });
  }, 300_000);

  it('the subject fills the case data (API) and submits on the Review page', async () => {
    const basic = {
      gender: 'female',
      title: 'Ms',
      forename: 'Dana',
      middlename: '',
      surname: 'Topup',
      dob: '1991-03-04',
      phone_number: '+447911123456',
      nationality: 'GBR',
    };
    const existing = await subject.api.get(`/api/s/case-basic-details/${caseId}/`);
    if (existing.status() === 200) {
      await send(subject, 'patch', `/api/s/case-basic-details/${caseId}/`, basic);
    } else {
      await send(subject, 'post', '/api/s/case-basic-details/', { case: caseId, ...basic });
    }
    // two identity documents, to be shown in person today (the verifier collects a third)
    for (const type of ['passport', 'bank-statement']) await upload(subject, '/api/s/', type);
    await send(subject, 'patch', `/api/s/case-dbs-details/${caseId}/`, {
      idv_option: 'in-person',
      in_person_expected_date: new Date().toISOString().slice(0, 10),
    });
    const portal = await (await subject.api.get(`/api/s/case-portal/${caseId}/`)).json();
    const sections: string[] = portal.portal.sections;
    const beforeReview = sections[sections.indexOf('review') - 1];
    expect(beforeReview, sections.join()).toBeTruthy();
    // the declarations the portal's sections would have taken (issue 27: no submission without)
    await giveConsents(subject, caseId);
    await send(subject, 'patch', `/api/s/case-portal/${caseId}/`, {
      portal_last_completed_section: beforeReview,
    });

    const { context, page } = await subjectPage();
    await page.goto(`/s/case-portal/${caseId}/review`);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/done'));
    await context.close();
    await expect.poll(async () => (await enhanced()).state).toBe('ca-awaiting-agent');
    expect((await enhanced()).result_data.application?.reference ?? null).toBeNull();
  }, 300_000);

  it('customer staff verify and countersign; then the provider demands a top-up', async () => {
    const { context, page } = await world.signedIn(browser, 'admin');
    await page.goto(`/cases/${caseId}`);
    const card = page.locator(`[data-activity-id="${enhancedId}"]`);
    const panel = card.getByTestId('dbs-result-panel');
    await panel.waitFor();
    await card.getByText('This application is awaiting verification.').waitFor();
    // two documents are short of Route 1: what is missing is said, and Verify is off
    const short = card.getByTestId('dbs-evidence');
    await short.getByText('The identity cannot be verified yet').waitFor();
    expect(await short.textContent()).toContain(
      'Route 1 still needs: 1 more document from Group 1, 2a or 2b.',
    );
    expect(await card.getByTestId('dbs-verify').isDisabled()).toBe(true);
    await look(page, 'customer-verification-short', card);
    // the verifier collects the subject's utility bill, then verifies against Route 1
    await upload(admin, '/api/', 'utility-bill');
    await page.reload();
    const evidence = card.getByTestId('dbs-evidence');
    await evidence.getByText('Route 1 is met by the documents collected:').waitFor();
    expect(await evidence.textContent()).toContain('Passport (Group 1)');
    await look(page, 'customer-awaiting-verification', card);
    await card.getByTestId('dbs-verify').click();
    await card.getByText('This application is awaiting countersigning.').waitFor();
    await look(page, 'customer-awaiting-countersigning', card);
    expect((await enhanced()).state).toBe('ca-awaiting-agent');
    await card.getByTestId('dbs-countersign').click();
    await expect
      .poll(async () => (await enhanced()).result_data.top_up?.status ?? '', { timeout: 30_000 })
      .toBe('awaiting');
    expect((await enhanced()).state).toBe('ca-awaiting-subject');
    await page.reload();
    const topUp = card.getByTestId('dbs-top-up');
    await topUp.waitFor();
    expect(await topUp.textContent()).toContain('Awaiting top-up payment');
    expect(await topUp.textContent()).toContain('Amount due: £15.00');
    await look(page, 'customer-awaiting-top-up', card);
    await context.close();
  }, 300_000);

  it('the subject pays the top-up in the payment portal through a 3-D Secure challenge (phone)', async () => {
    const { context, page } = await subjectPage(PHONE);
    await page.goto(`/s/cases/${caseId}`);
    // the case stays submitted; its one next step is paying (the panel links there too)
    const pay = page.getByTestId('next-step');
    await pay.waitFor();
    expect(await pay.textContent()).toBe('Pay the top-up');
    expect(await page.getByTestId('dbs-top-up').getByRole('link').textContent()).toBe(
      'Pay the top-up',
    );
    expect(await page.getByTestId('dbs-status').count()).toBe(0);
    await page.screenshot({
      path: join(shots, 'subject-awaiting-top-up-phone.png'),
      fullPage: true,
    });
    await pay.click();
    await page.waitForURL(/\/payment-portal\//);
    await expect
      .poll(() => page.getByTestId('amount').textContent(), { timeout: 15_000 })
      .toBe('£15.00');
    expect(await axeClean(page)).toEqual([]);
    await page.screenshot({ path: join(shots, 'payment-portal-phone.png'), fullPage: true });
    await page.locator('#card-name').fill('Dana Topup');
    await page.locator('#card-number').fill('4000 0000 0000 3220');
    await page.locator('#card-expiry').fill('12/34');
    await page.locator('#card-cvc').fill('123');
    await page.getByRole('button', { name: 'Pay £15.00' }).click();
    // the simulator's 3-D Secure challenge
    await page.waitForURL(/\/simulator\/payments\/3ds\//, { timeout: 15_000 });
    await page.screenshot({ path: join(shots, 'payment-3ds-phone.png'), fullPage: true });
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.waitForURL(/\/payment-portal\/[^/]+$/, { timeout: 15_000 });
    await expect
      .poll(() => page.getByText('Payment received').count(), { timeout: 15_000 })
      .toBe(1);
    await page.screenshot({ path: join(shots, 'payment-paid-phone.png'), fullPage: true });
    await context.close();

    // the signed webhook settles the top-up; the provider takes the application
    await expect
      .poll(async () => (await enhanced()).result_data.application?.reference ?? '', {
        timeout: 30_000,
      })
      .toMatch(/^EB-/);
    const going = await enhanced();
    expect(going.state).toBe('ca-in-progress');
    expect(going.result_data.top_up?.status).toBe('paid');
    const customer = await world.signedIn(browser, 'admin');
    await customer.page.goto(`/cases/${caseId}`);
    const card = customer.page.locator(`[data-activity-id="${enhancedId}"]`);
    await card.getByTestId('dbs-result-panel').waitFor();
    expect(await card.getByTestId('dbs-top-up').count()).toBe(0);
    await look(customer.page, 'customer-in-progress', card);
    await customer.context.close();
  }, 300_000);

  it('the provider stages over simulated days, to the result for customer, ops and subject', async () => {
    for (const days of [2, 3, 2]) {
      const moved = await send(ops, 'post', '/api/ops/checks/simulator/advance/', {
        activity: enhancedId,
        days,
      });
      expect(moved.found).toBe(true);
      step(`advanced ${days} days: ${(await enhanced()).state}`);
    }
    const done = await enhanced();
    expect(done.state).toBe('ca-complete');
    expect(done.result_data.disclosure?.status).toBe('clear');

    const customer = await world.signedIn(browser, 'admin');
    await customer.page.goto(`/cases/${caseId}`);
    const card = customer.page.locator(`[data-activity-id="${enhancedId}"]`);
    await card.getByTestId('dbs-result-panel').waitFor();
    const text = (await card.getByTestId('dbs-result-panel').textContent()) ?? '';
    expect(text).toContain('This is not a certificate issued by the DBS');
    expect(text).not.toContain('DBS Results not yet available');
    // the adults' barred list, searched, no match
    const barred = (await card.getByTestId('dbs-barred-lists').textContent()) ?? '';
    expect(barred).toContain('Adults barred list');
    expect(barred).toContain('No match');
    await look(customer.page, 'customer-result', card);
    await customer.context.close();

    const s = await subjectPage();
    await s.page.goto(`/s/cases/${caseId}`);
    const subjectPanel = s.page.getByTestId('dbs-result-panel').first();
    await subjectPanel.waitFor();
    const subjectText = (await subjectPanel.textContent()) ?? '';
    expect(subjectText).toContain('This is not a certificate issued by the DBS');
    expect(await s.page.getByTestId('notes-accordion').count()).toBe(0);
    await look(s.page, 'subject-result');
    await s.context.close();
  }, 300_000);

  it('adult first: requested on the customer page, then pending -> requested -> result by ops', async () => {
    const { context, page } = await world.signedIn(browser, 'admin');
    await page.goto(`/cases/${caseId}`);
    await page.getByTestId('request-adult-first').click();
    await page.getByTestId('adult-first-panel').waitFor();
    expect(await page.getByTestId('adult-first-panel').textContent()).toContain(
      'An adult first result can take up to 72 hours.',
    );
    await look(page, 'customer-adult-first-pending', page.getByTestId('adult-first-panel'));
    await context.close();
    const list = await (
      await admin.api.get('/api/case-activities/', {
        params: { case: caseId, activity_type: 'adult-first', page_size: 10 },
      })
    ).json();
    const adultFirst: number = list.results[0]?.id ?? 0;
    expect(adultFirst, JSON.stringify(list.results)).toBeGreaterThan(0);

    const opsPage = await newPage(browser);
    const p = opsPage.page;
    await loginUi(
      p,
      world.username('ops'),
      WORLD_PASSWORD,
      `/login?next=%2Fops%2Foutstanding-activities%2F${adultFirst}`,
    );
    await p.waitForURL(`**/ops/outstanding-activities/${adultFirst}`);
    const form = p.getByTestId('adult-first-form');
    await form.waitFor();
    await look(p, 'ops-adult-first-pending');
    await form.getByRole('textbox', { name: 'Reference' }).fill(`AF-${stamp}`);
    await form.getByRole('button', { name: 'Save request' }).click();
    await form.getByRole('button', { name: 'Save result' }).waitFor();
    await look(p, 'ops-adult-first-requested');

    // The case in the customer's workspace (an operations session): the DBS result for ops.
    await p.getByRole('button', { name: `Open the case as ${world.customer.name}` }).click();
    await p.waitForURL(`**/cases/${caseId}`);
    const card = p.locator(`[data-activity-id="${enhancedId}"]`);
    await card.getByTestId('dbs-result-panel').waitFor();
    await card.getByTestId('notes-accordion').waitFor();
    await look(p, 'ops-result', card);

    const staged = p.getByTestId('adult-first-form');
    await staged.getByLabel('No Match').check();
    await staged.getByRole('button', { name: 'Save result' }).click();
    await p.waitForURL('**/ops/outstanding-activities');
    await opsPage.context.close();
    const after = await (await admin.api.get(`/api/case-activities/${adultFirst}/`)).json();
    expect(after.state).toBe('ca-complete');
    expect(after.result_data).toMatchObject({ stage: 'result-received', result: 'no-match' });

    const customer = await world.signedIn(browser, 'admin');
    await customer.page.goto(`/cases/${caseId}`);
    const afPanel = customer.page.getByTestId('adult-first-panel');
    await afPanel.waitFor();
    await customer.page.getByText('No Match').first().waitFor();
    await look(customer.page, 'customer-adult-first-result', afPanel);
    await customer.context.close();
    const s = await subjectPage();
    await s.page.goto(`/s/cases/${caseId}`);
    await s.page.getByTestId('adult-first-panel').waitFor();
    await look(s.page, 'subject-adult-first-result');
    await s.context.close();
  }, 300_000);
});
