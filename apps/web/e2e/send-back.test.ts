import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveConsents, newWorld, type World } from './fixtures';
import {
  type Api,
  axeClean,
  launch,
  lookAtWidths,
  PHONE,
  send,
  uploadIdentityPage,
} from './helpers';

// Issue 27, end to end: a standard DBS application the person submitted waits for verification;
// customer staff verify it, then send it back to the person from the outstanding activity (a
// confirm step); the person, on a phone, finds their portal open at Review & Submit and submits
// again; the application waits for verification once more (its details back to pending).
// On a world of its own (e2e/fixtures.ts). Screenshots at 1280 and 360 px: /tmp/shots/g/.

const shots = '/tmp/shots/g';
const step = (what: string) => console.log(new Date().toISOString(), 'send-back:', what);

let browser: Browser;
let world: World;
let admin: Api;
let subject: Api;
let activityId = 0;

const activity = async () =>
  (await (await admin.api.get(`/api/case-activities/${activityId}/`)).json()) as {
    state: string;
  };
const dbsDetails = async () =>
  (await (await admin.api.get(`/api/case-dbs-details/${world.caseId}/`)).json()) as {
    state: string;
  };

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    withCase: [
      'basic-details',
      { code: 'dbs-standard', config: { purpose: 'employment', employment_sector: 'health' } },
    ],
    withCaseData: true,
  });
  admin = await world.api('admin');
  subject = await world.api('subject');
  const list = await (
    await admin.api.get('/api/case-activities/', { params: { case: world.caseId } })
  ).json();
  activityId =
    (list.results as { id: number; activity_type: string }[]).find(
      (a) => a.activity_type === 'dbs-standard',
    )?.id ?? 0;
  expect(activityId, JSON.stringify(list.results)).toBeGreaterThan(0);
});
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

describe('sending a check back to the person', () => {
  it('the person submits (API); staff verify, then send it back', async () => {
    // the person's identity documents (Route 1) and how they will show them
    for (const type of ['passport', 'bank-statement', 'utility-bill']) {
      await uploadIdentityPage(subject, '/api/s/', world.caseId, type);
    }
    await send(subject, 'patch', `/api/s/case-dbs-details/${world.caseId}/`, {
      idv_option: 'in-person',
      in_person_expected_date: new Date().toISOString().slice(0, 10),
    });
    // the DBS declaration, as the section gives it
    await giveConsents(subject, world.caseId);
    const portal = await (await subject.api.get(`/api/s/case-portal/${world.caseId}/`)).json();
    const sections: string[] = portal.portal.sections;
    await send(subject, 'patch', `/api/s/case-portal/${world.caseId}/`, {
      portal_last_completed_section: sections[sections.indexOf('review') - 1],
    });
    await send(subject, 'post', `/api/s/case-portal/${world.caseId}/submit/`, {});
    await expect.poll(async () => (await activity()).state).toBe('ca-awaiting-agent');
    await send(admin, 'post', `/api/case-dbs-details/${world.caseId}/verify/`, {});
    expect((await dbsDetails()).state).toBe('verified');
    step('submitted and verified');

    const { context, page } = await world.signedIn(browser, 'admin');
    await page.goto(`/outstanding-activities/${activityId}`);
    const action = page.getByRole('button', { name: 'Send back to the person' });
    await expect.poll(() => action.isVisible()).toBe(true);
    await lookAtWidths(page, shots, 'outstanding-send-back');
    await action.click();
    const dialog = page.getByRole('dialog', { name: 'Send back to the person' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.textContent()).toContain('their portal reopens at Review & Submit');
    await lookAtWidths(page, shots, 'send-back-confirm');
    await dialog.getByRole('button', { name: 'Send back', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/outstanding-activities');
    await expect.poll(async () => (await activity()).state).toBe('ca-awaiting-subject');
    expect((await dbsDetails()).state).toBe('pending');
    // no longer waiting for the customer: nothing to send back any more
    await page.goto(`/outstanding-activities/${activityId}`);
    await expect
      .poll(() => page.getByText('This activity is no longer outstanding.').isVisible())
      .toBe(true);
    await context.close();
    step('sent back');
  }, 300_000);

  it('the person, on a phone, finds Review & Submit and submits again', async () => {
    const { context, page } = await world.signedIn(browser, 'subject', {
      viewport: { ...PHONE, width: 360 },
    });
    await page.goto(`/s/cases/${world.caseId}`);
    const next = page.getByRole('link', { name: 'Continue: Review & Submit' });
    await expect.poll(() => next.isVisible()).toBe(true);
    await lookAtWidths(page, shots, 'subject-case-sent-back');
    await page.setViewportSize({ ...PHONE, width: 360 });
    await next.click();
    await page.waitForURL((url) => url.pathname.endsWith('/review'));
    const submit = page.getByRole('button', { name: 'Submit' });
    await expect.poll(() => submit.isVisible()).toBe(true);
    expect(await axeClean(page)).toEqual([]);
    await page.screenshot({ path: `${shots}/review-again-360.png`, fullPage: true });
    await submit.click();
    await page.waitForURL((url) => url.pathname.endsWith('/done'));
    await page.screenshot({ path: `${shots}/done-again-360.png`, fullPage: true });
    await context.close();
    // waiting for verification again, and nothing sent on the old one
    await expect.poll(async () => (await activity()).state).toBe('ca-awaiting-agent');
    expect((await dbsDetails()).state).toBe('pending');
    const refused = await admin.api.post(`/api/case-dbs-details/${world.caseId}/countersign/`, {
      data: {},
      headers: { 'X-CSRFToken': admin.csrf() },
    });
    expect(refused.status()).toBe(400);
    step('resubmitted');
  }, 300_000);
});
