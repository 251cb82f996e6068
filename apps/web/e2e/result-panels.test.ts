import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARE_WORKER_CHECKS, newWorld, WORLD_PASSWORD, type World } from './fixtures';
import { axeClean, launch, loginUi, newPage, PHONE, steady } from './helpers';

// The criminal-record result panels (issue 17) for customer staff and operations: a complete
// enhanced result, a partial one awaiting a top-up, and an adult-first request through its
// stages. On a world of its own (e2e/fixtures.ts): two open cases of the demo's care worker
// checks (an enhanced check with the adult barred list) for one person, the world's staff and
// its own operations user; the data is arranged through the API as before.

let browser: Browser;
let world: World;
const CARE = 'Care worker onboarding';
beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    ops: true,
    processes: [{ name: CARE, requirements: CARE_WORKER_CHECKS }],
    subjects: [{ key: 'priya', firstName: 'Priya', lastName: 'Shah', dob: '1988-02-14' }],
  });
  await world.openCase(CARE, 'priya');
  await world.openCase(CARE, 'priya');
});
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

const shots = '/tmp/shots/result-panels';
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) => {
  step(`shot ${name}`);
  return page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
};
const step = (what: string) => console.log(new Date().toISOString(), what);

/** Buttons and links of the result panels under 44 px tall (text links in facts aside). */
const smallTargets = (page: Page) =>
  page
    .locator(
      '[data-testid="activity-result"] :is(button, a.mantine-Button-root, [data-testid="guidance-link"])',
    )
    .evaluateAll((els) =>
      els
        .filter((e) => {
          const r = e.getBoundingClientRect();
          return r.height > 0 && r.height < 44;
        })
        .map((e) => `${e.textContent} ${Math.round(e.getBoundingClientRect().height)}`),
    );

const complete = {
  applicant: { title: 'Ms', forename: 'Priya', surname: 'Shah', dob: '1988-02-14' },
  application: {
    status: 'Completed',
    reference: 'E0012345678',
    received_date: '2026-10-02',
    police_computer_search_date: '2026-10-05',
    certificate_assembled_date: '2026-10-12',
    certificate_despatched_date: '2026-10-13',
    certificate_printed_date: '2026-10-13',
    barred_list_search_date: '2026-10-06',
    records_held_date: '2026-10-07',
    verified_by: 'Ada Admin',
    countersigned_by: 'Colin Counter',
  },
  disclosure: {
    status: 'clear',
    certificate_number: '001234567890',
    issue_date: '2026-10-13',
    manual_certificate: false,
  },
  tracking: [
    { stage: 'Application received', status: 'Completed', completed_date: '2026-10-02' },
    {
      stage: 'Police national computer searched',
      status: 'Completed',
      completed_date: '2026-10-05',
    },
    { stage: 'Barred lists searched', status: 'Completed', completed_date: '2026-10-06' },
    { stage: 'Local police records', status: 'Completed', completed_date: '2026-10-11' },
    { stage: 'Certificate printed', status: 'Completed', completed_date: '2026-10-13' },
  ],
  barred_lists: [{ list: 'adult', searched: true, search_date: '2026-10-06', result: 'no-match' }],
  update_service: { certificate_status: 'BLANK_NO_NEW_INFO', checked_date: '2026-11-01' },
};

interface Row {
  id: number;
  state: string;
  case: { id: number; state: string };
  config: Record<string, unknown>;
}

describe('result panels', () => {
  it('customer and operations views of DBS results, a top-up and adult first', async () => {
    const admin = await world.api('admin');
    const ops = await world.api('ops');
    const list = await (
      await admin.api.get('/api/case-activities/', {
        params: { activity_type: 'dbs-enhanced', page_size: 100 },
      })
    ).json();
    const open: Row[] = list.results.filter(
      (a: Row) =>
        !['complete', 'cancelled'].includes(a.case.state) &&
        a.config.adult_barred_list === true &&
        !['ca-complete', 'ca-cancelled'].includes(a.state),
    );
    expect(open.length, JSON.stringify(list.results.map((a: Row) => a.case))).toBe(2);
    const [done, waiting] = open as [Row, Row];
    const patch = async (id: number, data: object, path = '') => {
      const res = await ops.api.patch(`/api/ops/case-activities/${id}/${path}`, {
        data,
        headers: { 'X-CSRFToken': ops.csrf() },
      });
      expect(res.status(), await res.text()).toBe(200);
    };
    await patch(done.id, { result_data: complete });
    await patch(waiting.id, {
      result_data: { application: { reference: 'E0012399999', received_date: '2026-11-20' } },
    });
    await patch(
      waiting.id,
      {
        top_up: {
          status: 'awaiting',
          amount_pence: 1250,
          reason: 'Price change',
          payment_intent: 'pi_demo_123',
        },
      },
      'processing-data/',
    );
    const requested = await admin.api.post(`/api/case-activities/${done.id}/request-adult-first/`, {
      headers: { 'X-CSRFToken': admin.csrf() },
    });
    expect(requested.status(), await requested.text()).toBe(201);
    const adultFirst: number = (await requested.json()).id;
    // The waiting case's DBS details (checks-dbs) decide its status line: pending is awaiting
    // verification, verified awaiting countersigning; otherwise (none yet, or past both) the
    // application with a reference is being processed by the DBS (spec: DBS result texts).
    const details = await admin.api.get(`/api/case-dbs-details/${waiting.case.id}/`);
    const detailsState: string | null = details.ok() ? (await details.json()).state : null;
    const waitingStatus =
      detailsState === 'pending'
        ? 'This application is awaiting verification.'
        : detailsState === 'verified'
          ? 'This application is awaiting countersigning.'
          : 'This application is being processed by the DBS.';

    // Customer staff: the complete result with its configuration, then the partial one.
    const { context, page } = await world.signedIn(browser, 'admin');
    await page.goto(`/cases/${done.case.id}`);
    // The case shows a panel for each of its DBS activities: the one this test completed.
    const doneCard = page.locator(`[data-activity-id="${done.id}"]`);
    const panel = doneCard.getByTestId('dbs-result-panel');
    await panel.waitFor();
    expect(await panel.textContent()).toContain('This is not a certificate issued by the DBS');
    expect(await panel.textContent()).toContain('13th Oct 2026');
    await page.getByTestId('adult-first-panel').waitFor();
    expect(await page.getByTestId('adult-first-panel').textContent()).toContain(
      'An adult first result can take up to 72 hours.',
    );
    await doneCard.getByRole('button', { name: 'Activity configuration' }).click();
    await doneCard.getByText('A Adult').first().waitFor();
    expect(await page.getByTestId('notes-accordion').count()).toBe(0);
    expect(await axeClean(page)).toEqual([]);
    await shot(page, 'customer-complete-desktop');
    await page.setViewportSize(PHONE);
    await steady(page);
    expect(await axeClean(page)).toEqual([]);
    await shot(page, 'customer-complete-phone');

    await page.goto(`/cases/${waiting.case.id}`);
    const waitingCard = page.locator(`[data-activity-id="${waiting.id}"]`);
    await waitingCard.getByTestId('dbs-top-up').waitFor();
    expect(await waitingCard.getByTestId('dbs-top-up').textContent()).toContain(
      'Awaiting top-up payment',
    );
    expect(
      await waitingCard.getByRole('link', { name: 'Pay the top-up' }).getAttribute('href'),
    ).toBe('/payment-portal/pi_demo_123');
    // the status line waits for the case's DBS details (their own request)
    await expect
      .poll(() => waitingCard.getByTestId('dbs-result-panel').textContent())
      .toContain(waitingStatus);
    const text = await waitingCard.getByTestId('dbs-result-panel').textContent();
    expect(text).toContain('DBS Results not yet available');
    expect(text).toContain('DBS Tracking not yet available');
    expect(await axeClean(page)).toEqual([]);
    expect(await smallTargets(page)).toEqual([]);
    await shot(page, 'customer-partial-phone');
    await page.setViewportSize({ width: 1366, height: 860 });
    await steady(page);
    await shot(page, 'customer-partial-desktop');
    await context.close();

    // Operations: the adult-first activity waits for them; its staged form, then the case.
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
    step('form wait');
    await form.waitFor();
    await form.getByRole('button', { name: 'Save request' }).click();
    await p.getByTestId('error-summary').waitFor();
    expect(await p.getByTestId('error-summary').textContent()).toContain('Reference: Required');
    expect(await axeClean(p)).toEqual([]);
    await shot(p, 'ops-adult-first-pending-errors-desktop');
    await form.getByRole('textbox', { name: 'Reference' }).fill('AF-2026-001');
    // The subject may have several DBS cases (this person has two): the adult first is linked to
    // the case it was requested from.
    await form.getByRole('combobox', { name: /DBS case/ }).selectOption(String(done.case.id));
    await form.getByRole('button', { name: 'Save request' }).click();
    await form.getByRole('button', { name: 'Save result' }).waitFor();
    await p.setViewportSize(PHONE);
    await steady(p);
    expect(await axeClean(p)).toEqual([]);
    await shot(p, 'ops-adult-first-requested-phone');
    await p.setViewportSize({ width: 1366, height: 860 });

    // In the customer's workspace (an operations session): notes and the ops forms.
    await p.getByRole('button', { name: `Open the case as ${world.customer.name}` }).click();
    await p.waitForURL(`**/cases/${done.case.id}`);
    await p.getByTestId('notes-accordion').first().waitFor();
    await p.getByRole('button', { name: 'DBS enhanced provider configuration' }).first().waitFor();
    // The first card's notes, found inside its accordion (an operations form of another card may
    // have a 'Notes' field of its own); once the page's requests are done
    await p.waitForLoadState('networkidle');
    const accordion = p.getByTestId('notes-accordion').first();
    await accordion.getByRole('button', { name: 'Notes' }).click();
    const notes = accordion.getByRole('textbox', { name: 'Notes', exact: true });
    await notes.fill('x'.repeat(401));
    await accordion.getByText('Max length 400').waitFor();
    expect(await accordion.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(
      true,
    );
    await notes.fill('Referee called; certificate seen.');
    await accordion.getByRole('button', { name: 'Save', exact: true }).click();
    await p.getByText('Successfully added notes').waitFor();
    expect(await axeClean(p)).toEqual([]);
    await shot(p, 'ops-case-desktop');
    await p.setViewportSize(PHONE);
    await steady(p);
    expect(await axeClean(p)).toEqual([]);
    expect(await smallTargets(p)).toEqual([]);
    await shot(p, 'ops-case-phone');
    await p.setViewportSize({ width: 1366, height: 860 });

    // The result: ops go back to their outstanding list.
    const staged = p.getByTestId('adult-first-form');
    await staged.getByLabel('Wait for Certificate').check();
    await staged.getByRole('button', { name: 'Save result' }).click();
    await p.waitForURL('**/ops/outstanding-activities');
    await opsPage.context.close();
  }, 300_000);
});
