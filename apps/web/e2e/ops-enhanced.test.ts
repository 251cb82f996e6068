import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveConsents, newWorld, type World } from './fixtures';
import {
  type Api,
  launch,
  lookAtWidths,
  lookLightAndDark,
  send,
  setDark,
  steady,
  uploadIdentityPage,
  writeScreenshots,
} from './helpers';

// Issue 29's "claim and work an enhanced check from the queue to its result through the ops
// forms", the whole path in one go: the person submits an enhanced DBS check with the adults'
// barred list (API), customer staff verify their identity (API: the customer's step); the check
// now waits for a countersignature, operations' turn, so it is in the ops queue. An ops user
// finds it there (filtered to the customer and the kind), claims it, saves the DBS enhanced
// provider configuration (ops form) and countersigns (ops form); it leaves the queue and goes to
// the simulated e-bulk provider, which moves it through its stages as its clock is advanced, to
// a clear disclosure shown on the customer's case. Writes, so it runs in a world of its own
// (e2e/fixtures.ts), with a tag per attempt in what it types.

const WIDE = { width: 1280, height: 900 };
const shots = '/tmp/shots/ops-enhanced';
mkdirSync(shots, { recursive: true });
const attempt = Date.now().toString(36);
const ENHANCED = {
  code: 'dbs-enhanced',
  config: {
    purpose: 'employment',
    workforce: 'A',
    adult_barred_list: true,
    employment_sector: 'social-care',
  },
};

let browser: Browser;
let world: World;
let admin: Api;
let ops: Api;
let enhancedId = 0;

/** One part of the page at 1280 px, readable at full size (the page's own shots are long). */
async function part(page: Page, locator: Locator, name: string) {
  await page.setViewportSize(WIDE);
  await steady(page);
  if (writeScreenshots) await locator.screenshot({ path: join(shots, `${name}-1280-part.png`) });
}

/** The page from its top at 1280 and 360 px, axe clean (a fixed header drawn once). */
async function whole(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await lookAtWidths(page, shots, name);
}

type Enhanced = {
  state: string;
  result_data: {
    application?: { reference?: string | null };
    disclosure?: { status?: string | null };
  };
};
async function enhanced(): Promise<Enhanced> {
  const res = await admin.api.get(`/api/case-activities/${enhancedId}/`);
  expect(res.status()).toBe(200);
  return res.json();
}

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({ ops: true, withCase: ['basic-details', ENHANCED], withCaseData: true });
  admin = await world.api('admin');
  ops = await world.api('ops');
  const list = await (
    await admin.api.get('/api/case-activities/', { params: { case: world.caseId } })
  ).json();
  enhancedId =
    (list.results as { id: number; activity_type: string }[]).find(
      (a) => a.activity_type === 'dbs-enhanced',
    )?.id ?? 0;
  expect(enhancedId, JSON.stringify(list.results)).toBeGreaterThan(0);
});
afterAll(async () => {
  if (ops) await setDark(ops, false);
  if (admin) await setDark(admin, false);
  await world?.dispose();
  await browser?.close();
});

describe('an enhanced check from the ops queue to its result', () => {
  it('submitted by the person, verified by the customer, claimed, configured and countersigned by ops, to the result on the case', async () => {
    // the person's identity documents (Route 1), how they show them, the declaration; submitted
    const subject = await world.api('subject');
    for (const type of ['passport', 'bank-statement', 'utility-bill']) {
      await uploadIdentityPage(subject, '/api/s/', world.caseId, type);
    }
    await send(subject, 'patch', `/api/s/case-dbs-details/${world.caseId}/`, {
      idv_option: 'in-person',
      in_person_expected_date: new Date().toISOString().slice(0, 10),
    });
    await giveConsents(subject, world.caseId);
    const portal = await (await subject.api.get(`/api/s/case-portal/${world.caseId}/`)).json();
    const sections: string[] = portal.portal.sections;
    await send(subject, 'patch', `/api/s/case-portal/${world.caseId}/`, {
      portal_last_completed_section: sections[sections.indexOf('review') - 1],
    });
    await send(subject, 'post', `/api/s/case-portal/${world.caseId}/submit/`, {});
    await expect.poll(async () => (await enhanced()).state).toBe('ca-awaiting-agent');
    // verifying the identity is the customer's step; then it waits for a countersignature
    await send(admin, 'post', `/api/case-dbs-details/${world.caseId}/verify/`, {});

    // the queue, filtered to this customer's enhanced checks: the check, unassigned
    const session = await world.signedIn(browser, 'ops', { viewport: WIDE });
    const p = session.page;
    const queue = `/ops/outstanding-activities?customer=${world.customer.id}&activity_type=dbs-enhanced`;
    await p.goto(queue);
    await p.getByRole('heading', { name: 'Outstanding activities', level: 1 }).waitFor();
    const row = p.getByTestId(`queue-row-${enhancedId}`);
    await row.waitFor();
    expect(await row.getByText(/^Assigned to /).count()).toBe(0);
    await lookLightAndDark(p, ops, shots, 'queue');
    await p.getByTestId(`queue-row-${enhancedId}`).getByRole('link').first().click();
    await p.waitForURL(`**/ops/outstanding-activities/${enhancedId}?**`);

    // claimed: assigned to this ops user, and so on the list
    const bar = p.getByTestId('claim-bar');
    await bar.getByText('Unassigned').waitFor();
    await bar.getByRole('button', { name: 'Claim' }).click();
    await bar.getByText(/^Assigned to /).waitFor();
    const detail = async () =>
      (await ops.api.get(`/api/ops/outstanding-activities/${enhancedId}/`)).json();
    expect((await detail()).claim?.user_id).toBe(world.ops?.id);
    await p.getByTestId('dbs-countersign').waitFor();
    await lookLightAndDark(p, ops, shots, 'claimed');
    await part(p, p.getByTestId('activity-result'), 'claimed-countersign-form');

    // ops form 1: the DBS enhanced provider configuration, saved
    await p.getByRole('button', { name: 'DBS enhanced provider configuration' }).click();
    const form = p.getByTestId('provider-config-form');
    const fields: [string, string][] = [
      ['Forename', 'Sam'],
      ['Surname', 'World'],
      ['Email', `sam.${attempt}@example.test`],
      ['Manager forename', 'Alex'],
      ['Manager surname', 'Admin'],
      ['Manager email', `manager.${attempt}@example.test`],
      ['Position', 'Care worker'],
      ['ID verifier username', `verifier-${attempt}`],
      ['Email group', `dbs.${attempt}@example.test`],
    ];
    for (const [label, value] of fields) {
      await form.getByRole('textbox', { name: label, exact: true }).fill(value);
    }
    await whole(p, 'provider-config-filled');
    await part(p, form, 'provider-config-filled');
    await form.getByRole('button', { name: 'Save configuration' }).click();
    await p.getByText('Successfully updated case activity').first().waitFor();
    const configured = await detail();
    expect(configured.processing_data.provider_configuration).toMatchObject({
      forename: 'Sam',
      id_verifier_username: `verifier-${attempt}`,
    });
    expect(configured.claim?.user_id).toBe(world.ops?.id);
    await whole(p, 'provider-config-saved');
    await part(p, p.getByTestId('provider-config'), 'provider-config-saved');

    // ops form 2: the countersignature; the check leaves operations' queue for the provider
    await p.getByTestId('dbs-countersign').click();
    await p.getByText('Successfully updated DBS details').first().waitFor();
    await expect.poll(() => p.getByTestId('dbs-countersign').count()).toBe(0);
    await p.reload();
    await p.getByText('This activity is no longer waiting for operations.').waitFor();
    await whole(p, 'countersigned');
    await expect
      .poll(async () => (await enhanced()).result_data.application?.reference ?? '', {
        timeout: 30_000,
      })
      .toMatch(/^EB-/);
    expect((await enhanced()).state).toBe('ca-in-progress');
    await p.goto(queue);
    await p.getByRole('heading', { name: 'Outstanding activities', level: 1 }).waitFor();
    await p.waitForLoadState('networkidle');
    expect(await p.getByTestId(`queue-row-${enhancedId}`).count()).toBe(0);
    await session.context.close();

    // the provider's stages over simulated days, to its result
    for (const days of [2, 3, 2]) {
      const moved = await send(ops, 'post', '/api/ops/checks/simulator/advance/', {
        activity: enhancedId,
        days,
      });
      expect(moved.found).toBe(true);
    }
    const done = await enhanced();
    expect(done.state).toBe('ca-complete');
    expect(done.result_data.disclosure?.status).toBe('clear');

    // the result on the customer's case
    const customer = await world.signedIn(browser, 'admin', { viewport: WIDE });
    await customer.page.goto(`/cases/${world.caseId}`);
    const card = customer.page.locator(`[data-activity-id="${enhancedId}"]`);
    const panel = card.getByTestId('dbs-result-panel');
    await panel.waitFor();
    const text = (await panel.textContent()) ?? '';
    expect(text).toContain('This is not a certificate issued by the DBS');
    expect(text).not.toContain('DBS Results not yet available');
    // countersigned by the ops user who claimed it
    expect(text).toMatch(/Countersigned by\s*Ops World/);
    const barred = (await card.getByTestId('dbs-barred-lists').textContent()) ?? '';
    expect(barred).toContain('Adults barred list');
    expect(barred).toContain('No match');
    await lookLightAndDark(customer.page, admin, shots, 'customer-result');
    await part(customer.page, card, 'customer-result');
    await customer.context.close();
  }, 300_000);
});
