import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARE_WORKER_CHECKS, newWorld, type World } from './fixtures';
import {
  apiAs,
  launch,
  loginUi,
  lookAtWidths,
  lookLightAndDark,
  newPage,
  send,
  setDark,
} from './helpers';

// Operations' work queue (issue 29): ops staff land on their dashboard, follow a figure to the
// filtered queue, claim an enhanced check; a second ops user is told who has it; the first saves
// its ops form and "Save and next" opens the next unclaimed check of the same filtered list.
// Then a check followed from the queue to its final result: an adult-first check of an enhanced
// check (the DBS family's check that operations work by hand, spec point 6), claimed from the
// queue, requested and its result recorded through the ops form, and the result on the case for
// the customer. That one writes, so it runs in a world of its own (e2e/fixtures.ts).

const OLIVIA = 'ops@kestrel.test';
const OWEN = 'owen.ops@kestrel.test';
const WIDE = { width: 1280, height: 900 };
const shots = '/tmp/shots/queue';
mkdirSync(shots, { recursive: true });

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
let world: World | undefined;
afterAll(async () => {
  await setDark(OLIVIA, false);
  await world?.dispose();
  await browser?.close();
});

/** Light and dark at 1280 px, axe clean in both (the profile's dark mode, reloaded). */
const look = (page: Page, name: string) => lookLightAndDark(page, OLIVIA, shots, name);

describe('the ops work queue', () => {
  it('claim, the second ops user told who has it, save and next', async () => {
    const olivia = await newPage(browser, { viewport: WIDE });
    const p = olivia.page;
    await loginUi(p, OLIVIA);
    await p.waitForURL('**/ops/dashboard');
    await p.getByRole('heading', { name: 'Operations dashboard' }).waitFor();
    await p.getByTestId('throughput-chart').waitFor();
    await look(p, 'dashboard');

    // the enhanced checks waiting: the figure's link is the filtered queue
    await p.getByRole('link', { name: /^Enhanced .*: \d+ waiting$/ }).click();
    await p.waitForURL((u) => u.searchParams.get('activity_type') === 'dbs-enhanced');
    await p.getByRole('heading', { name: 'Outstanding activities', level: 1 }).waitFor();
    // the demo's claims show on the list
    await p.getByRole('table').getByText('Assigned to Olivia Ops').first().waitFor();
    await p.getByRole('table').getByText('Assigned to Owen Ops').first().waitFor();
    await p.getByRole('combobox', { name: 'Assignee' }).click();
    await p.getByRole('option', { name: 'Unassigned' }).click();
    await p.waitForURL((u) => u.searchParams.get('assignee') === 'unassigned');
    const rows = p.locator('[data-testid^="queue-row-"]');
    await rows.first().waitFor();
    await expect.poll(() => rows.getByText(/^Assigned to /).count()).toBe(0);
    await look(p, 'list');

    // the oldest unclaimed enhanced check
    const first = p.locator('[data-testid^="queue-row-"]').first();
    const firstId = Number((await first.getAttribute('data-testid'))?.replace('queue-row-', ''));
    await first.getByRole('link').first().click();
    await p.waitForURL(`**/ops/outstanding-activities/${firstId}?**`);
    const bar = p.getByTestId('claim-bar');
    await bar.getByText('Unassigned').waitFor();
    await bar.getByRole('button', { name: 'Claim' }).click();
    await bar.getByText('Assigned to Olivia Ops').waitFor();
    await look(p, 'detail');

    // a second ops user, on the same check: told who has it
    const owen = await newPage(browser, { viewport: WIDE });
    await loginUi(owen.page, OWEN);
    await owen.page.waitForURL('**/ops/dashboard');
    await owen.page.goto(`/ops/outstanding-activities/${firstId}`);
    const owenBar = owen.page.getByTestId('claim-bar');
    await owenBar.getByText('Assigned to Olivia Ops').waitFor();
    await owenBar.getByRole('button', { name: 'Claim' }).click();
    await owen.page.getByText('Already claimed by Olivia Ops.').waitFor();
    const api = await apiAs(OWEN);
    const again = await api.api.post(`/api/ops/outstanding-activities/${firstId}/claim/`, {
      headers: { 'X-CSRFToken': api.csrf() },
      data: {},
    });
    expect([again.status(), await again.json()]).toEqual([
      409,
      { detail: 'Already claimed by Olivia Ops.' },
    ]);
    await api.api.dispose();
    await owen.context.close();

    // the ops form, saved: on to the next unclaimed enhanced check, filters kept
    // off until asked for: a form saved in steps (a request, then its result) stays on its check
    const next = p.getByRole('switch', { name: /^Save and next/ });
    expect(await next.isChecked()).toBe(false);
    await next.check();
    expect(await next.isChecked()).toBe(true);
    await p.getByRole('button', { name: 'DBS enhanced provider configuration' }).click();
    const form = p.getByTestId('provider-config-form');
    const fields: [string, string][] = [
      ['Forename', 'Priya'],
      ['Surname', 'Shah'],
      ['Email', 'priya.shah@example.test'],
      ['Manager forename', 'Alex'],
      ['Manager surname', 'Admin'],
      ['Manager email', 'admin@acme.test'],
      ['Position', 'Senior carer'],
      ['ID verifier username', 'Olivia Ops'],
      ['Email group', 'dbs@acme.test'],
    ];
    for (const [label, value] of fields) {
      await form.getByRole('textbox', { name: label, exact: true }).fill(value);
    }
    await form.getByRole('button', { name: 'Save configuration' }).click();
    await p
      .getByText('Successfully updated case activity')
      .first()
      .waitFor()
      .catch(async (err) => {
        await p.screenshot({ path: join(shots, 'save-failed.png'), fullPage: true });
        throw err;
      });
    await p.waitForURL(
      (u) =>
        /\/ops\/outstanding-activities\/\d+$/.test(u.pathname) &&
        !u.pathname.endsWith(`/${firstId}`) &&
        u.searchParams.get('activity_type') === 'dbs-enhanced' &&
        u.searchParams.get('assignee') === 'unassigned',
    );
    await p.getByTestId('claim-bar').getByText('Unassigned').waitFor();
    // the first check kept its configuration and its claim
    const ops = await apiAs(OLIVIA);
    const saved = await (await ops.api.get(`/api/ops/outstanding-activities/${firstId}/`)).json();
    expect(saved.processing_data.provider_configuration).toMatchObject({ forename: 'Priya' });
    expect(saved.claim).toMatchObject({ name: 'Olivia Ops' });
    // released for the demo's next run of the queue
    const released = await ops.api.post(`/api/ops/outstanding-activities/${firstId}/release/`, {
      headers: { 'X-CSRFToken': ops.csrf() },
      data: {},
    });
    expect(released.status()).toBe(200);
    await ops.api.dispose();
    await olivia.context.close();
  }, 300_000);
});

describe('a check from the queue to its final result', () => {
  it('ops claim an adult-first check, request it, record its result; the customer sees it', async () => {
    const w = await newWorld({ ops: true, withCase: CARE_WORKER_CHECKS });
    world = w;
    const admin = await w.api('admin');
    const activities = async () =>
      (
        await (
          await admin.api.get('/api/case-activities/', {
            params: { case: w.caseId, page_size: 50 },
          })
        ).json()
      ).results as { id: number; activity_type: string | { code: string }; state: string }[];
    const ofKind = async (code: string) =>
      (await activities()).find(
        (a) =>
          (typeof a.activity_type === 'string' ? a.activity_type : a.activity_type.code) === code,
      );
    const enhancedId = (await ofKind('dbs-enhanced'))?.id ?? 0;
    expect(enhancedId).toBeGreaterThan(0);
    // the customer asks for an adult first on the enhanced check: a check waiting for operations
    await send(admin, 'post', `/api/case-activities/${enhancedId}/request-adult-first/`, {});
    const adultFirst = await ofKind('adult-first');
    expect(adultFirst?.state).toBe('ca-awaiting-ops');
    const id = adultFirst?.id ?? 0;

    // the queue, filtered to this customer's adult-first checks: the check, unassigned
    const ops = await w.signedIn(browser, 'ops', { viewport: WIDE });
    const p = ops.page;
    await p.goto(`/ops/outstanding-activities?customer=${w.customer.id}&activity_type=adult-first`);
    await p.getByRole('heading', { name: 'Outstanding activities', level: 1 }).waitFor();
    const row = p.getByTestId(`queue-row-${id}`);
    await row.waitFor();
    expect(await row.getByText(/^Assigned to /).count()).toBe(0);
    await row.getByRole('link').first().click();
    await p.waitForURL(`**/ops/outstanding-activities/${id}?**`);
    const bar = p.getByTestId('claim-bar');
    await bar.getByRole('button', { name: 'Claim' }).click();
    await bar.getByText(/^Assigned to /).waitFor();
    const claimed = await (
      await (await w.api('ops')).api.get(`/api/ops/outstanding-activities/${id}/`)
    ).json();
    expect(claimed.claim?.user_id).toBe(w.ops?.id);

    // worked through its ops form: requested with the provider's reference, then its result
    const form = p.getByTestId('adult-first-form');
    await form.getByRole('textbox', { name: 'Reference' }).fill('AF-QUEUE-1');
    await form.getByRole('button', { name: 'Save request' }).click();
    await form.getByRole('button', { name: 'Save result' }).waitFor();
    await lookAtWidths(p, shots, 'adult-first-requested');
    await form.getByLabel('No Match').check();
    await form.getByRole('button', { name: 'Save result' }).click();
    // done: no longer waiting for operations, so back to the queue, where it is gone
    await p.waitForURL((u) => u.pathname === '/ops/outstanding-activities');
    await p.goto(`/ops/outstanding-activities?customer=${w.customer.id}&activity_type=adult-first`);
    await p.getByRole('heading', { name: 'Outstanding activities', level: 1 }).waitFor();
    await p.waitForLoadState('networkidle');
    expect(await p.getByTestId(`queue-row-${id}`).count()).toBe(0);
    await ops.context.close();
    const done = await (await admin.api.get(`/api/case-activities/${id}/`)).json();
    expect(done.state).toBe('ca-complete');
    expect(done.result_data).toMatchObject({
      stage: 'result-received',
      result: 'no-match',
      reference: 'AF-QUEUE-1',
    });

    // the customer sees the final result on the case
    const customer = await w.signedIn(browser, 'admin', { viewport: WIDE });
    await customer.page.goto(`/cases/${w.caseId}`);
    const panel = customer.page.getByTestId('adult-first-panel');
    await panel.waitFor();
    await panel.getByText('No Match', { exact: true }).first().waitFor();
    expect(await panel.textContent()).toContain('AF-QUEUE-1');
    await lookAtWidths(customer.page, shots, 'adult-first-customer-result');
    await customer.context.close();
  }, 300_000);
});
