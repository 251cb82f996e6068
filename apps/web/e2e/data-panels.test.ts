import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import { launch, lookAtWidths, PHONE, send, uploadIdentityPage } from './helpers';
import { png } from './test-files';

// Issue 27, parts 3 and 4, on a world of its own: the read-only data panels (address history,
// basic details, document collection) for the customer, operations and the subject, light and
// dark, at 1280 and 360 px; operations reject a document with a reason; the subject sees why in
// the portal on a phone and replaces it.

const shots = '/tmp/shots/h7';
mkdirSync(shots, { recursive: true });

let browser: Browser;
let world: World;
beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    ops: true,
    withCase: ['basic-details', 'address-history', 'document-collection'],
    withCaseData: true,
  });
});
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

const look = (page: Page, name: string) => lookAtWidths(page, shots, name);

async function darkMode(key: string, dark: boolean) {
  const who = await world.api(key);
  await send(who, 'put', '/api/user/', { dark_mode: dark });
}

describe('data panels and a rejected document', () => {
  it('shows the panels, rejects a document, and the subject replaces it on a phone', async () => {
    const caseId = world.caseId;
    const subject = await world.api('subject');
    await uploadIdentityPage(subject, '/api/s/', caseId, 'passport');
    await uploadIdentityPage(subject, '/api/s/', caseId, 'utility-bill');
    // the person has filled the sections before the documents (the portal opens no section past
    // the first unfinished one)
    await send(subject, 'patch', `/api/s/case-portal/${caseId}/`, {
      portal_last_completed_section: 'address-history',
    });
    // the documents wait for operations' review (as the subject's submission leaves them)
    const admin = await world.api('admin');
    const detail = await (await admin.api.get(`/api/cases/${caseId}/`)).json();
    const collection = (detail.case_activities as { id: number; activity_type: string }[]).find(
      (a) => a.activity_type === 'document-collection',
    );
    expect(collection).toBeDefined();
    await send(admin, 'patch', `/api/case-activities/${collection?.id}/`, {
      state: 'ca-awaiting-ops',
    });

    // the customer's case page, light then dark
    const staff = await world.signedIn(browser, 'admin');
    await staff.page.goto(`/cases/${caseId}`);
    await staff.page.getByTestId('address-history-panel').waitFor();
    await staff.page.getByTestId('basic-details-panel').waitFor();
    await staff.page.getByTestId('collected-document').first().waitFor();
    await expect
      .poll(() => staff.page.getByRole('table', { name: 'Address history' }).textContent())
      .toContain('Current');
    await look(staff.page, 'customer-case-light');
    await darkMode('admin', true);
    await staff.page.reload();
    await staff.page.getByTestId('basic-details-panel').waitFor();
    await staff.page.getByTestId('collected-document').first().waitFor();
    await look(staff.page, 'customer-case-dark');
    await darkMode('admin', false);
    await staff.context.close();

    // operations' detail page: the review, with the reject form
    const ops = await world.signedIn(browser, 'ops');
    await ops.page.goto(`/ops/outstanding-activities/${collection?.id}`);
    await ops.page.getByTestId('document-collection-panel').waitFor();
    await ops.page.getByTestId('collected-document').nth(1).waitFor();
    await look(ops.page, 'ops-review');
    await ops.page.getByRole('button', { name: 'Reject Passport' }).click();
    const dialog = ops.page.getByRole('dialog', { name: 'Reject document' });
    await dialog.getByLabel(/Reason/).fill('The photo is blurred: the number cannot be read.');
    await ops.page.screenshot({ path: `${shots}/ops-reject-dialog-1280.png` });
    await dialog.getByRole('button', { name: 'Reject document' }).click();
    await ops.page.getByText('Document rejected').waitFor();
    await ops.context.close();

    // the collection waits for the person again; the rejected passport left the panels
    const after = await (await admin.api.get(`/api/case-activities/${collection?.id}/`)).json();
    expect(after.state).toBe('ca-awaiting-subject');

    // the subject, on a phone: the portal's documents say why and ask again
    const person = await world.signedIn(browser, 'subject', { viewport: PHONE });
    await person.page.goto(`/s/case-portal/${caseId}/document-collection`);
    const rejected = person.page.getByTestId('rejected-document');
    await rejected.waitFor();
    await expect
      .poll(() => rejected.textContent())
      .toContain('Reason: The photo is blurred: the number cannot be read.');
    await person.page.screenshot({
      path: `${shots}/subject-portal-rejected-360.png`,
      fullPage: true,
    });
    const input = person.page.locator('input[type=file][data-testid^="doc-"]').first();
    await input.setInputFiles({ name: 'passport-again.png', mimeType: 'image/png', buffer: png() });
    // the upload, then the documents again (seconds on a loaded machine)
    await expect
      .poll(() => person.page.getByTestId('rejected-document').count(), { timeout: 30_000 })
      .toBe(0);
    await person.page.screenshot({
      path: `${shots}/subject-portal-replaced-360.png`,
      fullPage: true,
    });
    // the subject's case page: the restricted panels (no DBS update details, no copy id)
    await person.page.goto(`/s/cases/${caseId}`);
    await person.page.getByTestId('basic-details-panel').waitFor();
    await person.page.getByTestId('collected-document').nth(1).waitFor();
    expect(await person.page.getByTestId('basic-details-dbs-update').count()).toBe(0);
    expect(await person.page.getByRole('button', { name: /Copy document id/ }).count()).toBe(0);
    await look(person.page, 'subject-case');
    await person.context.close();
  }, 300_000);
});
