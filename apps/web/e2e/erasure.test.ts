import { mkdirSync } from 'node:fs';
import {
  ERASURE_CASE_NOTICE,
  ERASURE_CASE_REASON,
  ERASURE_RULE,
  ERASURE_RULE_NAME,
  redactionNotice,
} from '@kestrel/domain';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, WORLD_PASSWORD, type World } from './fixtures';
import { type Api, launch, loginUi, lookAtWidths, newPage, settle } from './helpers';

// Erasure end to end (issue 34): a customer's staff record an erasure request for a subject on
// the subject's page and approve it; the subject's personal data is scrubbed at once (the case
// data answers gone, the record renamed 'Erased subject' on the case page and the subject's page,
// each check's result redacted under 'erasure'); the subject's open portal page is sent to sign
// in within one poll and their password no longer signs in; the audit log shows the request, its
// approval and the erasure. data-requests.test.ts looks at the request screens themselves.

const shots = '/tmp/shots/erasure';
mkdirSync(shots, { recursive: true });

let browser: Browser;
let world: World;
let admin: Api;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    subjects: [{ key: 'subject', firstName: 'Erin', lastName: 'Erasmus' }],
    withCase: ['basic-details', 'address-history'],
    withCaseData: true,
  });
  admin = await world.api('admin');
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

describe('erasure of a subject', () => {
  it("a decided erasure request scrubs the subject's data at once, closes their sign-in and is in the audit log", async () => {
    const run = Date.now().toString(36);
    const subjectId = world.subjects.subject?.id;
    if (!subjectId) throw new Error('no subject');
    const caseId = world.caseId;

    // Before: the case holds the subject's answers and the subject is signed in to the portal.
    expect((await admin.api.get(`/api/case-passports/${caseId}/`)).status()).toBe(200);
    const basicBefore = await admin.api.get(`/api/case-basic-details/${caseId}/`);
    expect(await basicBefore.text()).toContain('Erasmus');
    const addressesBefore = await (
      await admin.api.get('/api/case-addresses/', { params: { case: caseId } })
    ).json();
    expect(addressesBefore.count).toBeGreaterThan(0);
    const subject = await world.signedIn(browser, 'subject');
    await subject.page.goto('/s/profile');
    await subject.page.getByRole('heading', { level: 1 }).first().waitFor();

    const { page } = await world.signedIn(browser, 'admin');
    await page.goto(`/cases/${caseId}`);
    await page.getByRole('heading', { name: `Case #${caseId}`, level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Erin Erasmus' }).waitFor();

    // 1. The request recorded on the subject's page, then decided.
    await page.goto(`/subjects/${subjectId}`);
    await page.getByRole('heading', { name: 'Personal data' }).waitFor();
    await page.getByRole('button', { name: 'Record erasure request' }).click();
    const asked = `Asked by letter, reference ${run}`;
    await page.getByLabel('How the person asked').fill(asked);
    await page.getByRole('button', { name: 'Record request' }).click();
    await page.getByText('Awaiting a decision').waitFor();
    const pending = await (
      await admin.api.get('/api/erasure-requests/', { params: { subject: subjectId } })
    ).json();
    expect(pending.results).toHaveLength(1);
    const request = pending.results[0];
    expect(request).toMatchObject({ state: 'pending', reason: asked, requested_by: 'staff' });

    await page.getByRole('button', { name: 'Approve and erase' }).click();
    await page.getByText('Carried out').first().waitFor();
    const decidedAt = Date.now();
    // the subject's open portal page is sent to sign in within one poll (5 s)
    await subject.page.waitForURL(/\/login/, { timeout: 7_000 });
    expect(Date.now() - decidedAt).toBeLessThan(7_000);
    await page.getByRole('heading', { name: 'Erased subject', level: 1 }).waitFor();
    await expect.poll(() => page.getByText('Sign-in closed').count()).toBe(1);
    expect(await page.getByText('Erasmus').count()).toBe(0);

    // 2. Scrubbed at once: the answers, the record's details, each check's result.
    // the passport gone (404 until made again); basic details answer blank, prefilled from the
    // renamed record
    expect((await admin.api.get(`/api/case-passports/${caseId}/`)).status()).toBe(404);
    const basicAfter = await admin.api.get(`/api/case-basic-details/${caseId}/`);
    expect(basicAfter.status()).toBe(200);
    expect(await basicAfter.text()).not.toContain('Erasmus');
    const addressesAfter = await (
      await admin.api.get('/api/case-addresses/', { params: { case: caseId } })
    ).json();
    expect(addressesAfter.count).toBe(0);
    const record = await (await admin.api.get(`/api/subjects/${subjectId}/`)).json();
    expect(record).toMatchObject({ first_name: 'Erased', last_name: 'subject', dob: null });
    expect(record.email).toMatch(/@erased\.invalid$/);
    const done = await (await admin.api.get(`/api/erasure-requests/${request.id}/`)).json();
    expect(done).toMatchObject({ state: 'completed', state_display: 'Carried out' });
    expect(done.outcome.sign_in).toBe('disabled');
    expect(done.outcome.removed).toMatchObject({ subjects: 1 });
    // each check's result redacted, recorded on the case under the erasure (the contract's rule)
    expect(done.outcome.results).toBeGreaterThan(0);
    const retention = await (await admin.api.get(`/api/cases/${caseId}/retention/`)).json();
    const redacted = retention.redactions.filter(
      (r: { target: string }) => r.target === 'activity',
    );
    expect(redacted).toHaveLength(done.outcome.results);
    for (const r of redacted) {
      expect(r).toMatchObject({ rule: ERASURE_RULE, rule_name: ERASURE_RULE_NAME });
    }

    // The case page: the subject erased, its answers gone.
    await page.goto(`/cases/${caseId}`);
    await page.getByRole('heading', { name: `Case #${caseId}`, level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Erased subject' }).waitFor();
    await settle(page);
    expect(await page.getByText('Erasmus').count()).toBe(0);
    // the case is closed with the erasure's reason: no reminder to send, the erasure's notice in
    // place of the forms (the case was awaiting the subject's answers)
    const closed = await (await admin.api.get(`/api/cases/${caseId}/`)).json();
    expect(closed).toMatchObject({ state: 'cancelled', cancelled_reason: ERASURE_CASE_REASON });
    expect(done.outcome.removed).toMatchObject({ cases_closed: 1 });
    await page.getByText(ERASURE_CASE_REASON, { exact: true }).waitFor();
    await page
      .getByTestId('erasure-notice')
      .getByText(ERASURE_CASE_NOTICE, { exact: true })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Send reminder' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Resend invitation' }).count()).toBe(0);
    expect(await page.getByTestId('case-data').count()).toBe(0);
    // each check's panel says it was redacted that day under the erasure (not the retention policy)
    const notices = page.getByTestId('redaction-notice');
    await expect.poll(() => notices.count()).toBe(done.outcome.results);
    for (const text of await notices.allTextContents()) {
      expect(text).toContain(redactionNotice(redacted[0].redacted_at, ERASURE_RULE));
      expect(text).toContain(`${ERASURE_RULE_NAME}: `);
    }
    await lookAtWidths(page, shots, 'case-after-erasure');

    // 3. The subject's password is refused from then on.
    await loginUi(subject.page, world.username('subject'), WORLD_PASSWORD);
    await subject.page.getByText('Invalid login details', { exact: true }).waitFor();
    await subject.context.close();
    const again = await newPage(browser);
    await loginUi(again.page, world.username('subject'), WORLD_PASSWORD);
    await again.page.getByText('Invalid login details', { exact: true }).waitFor();
    await again.context.close();

    // 4. The audit log: the request, its approval, the erasure and the closed sign-in.
    await page.goto('/audit-log');
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await page.getByLabel('Object id').fill(String(request.id));
    const requestRows = page.getByRole('row').filter({ hasText: `Erasure request #${request.id}` });
    await requestRows.filter({ hasText: 'Erasure requested' }).waitFor();
    await requestRows.filter({ hasText: 'Erasure approved' }).waitFor();
    await page.getByLabel('Object id').fill(String(subjectId));
    await page
      .getByRole('row')
      .filter({ hasText: `Subject #${subjectId}` })
      .filter({ hasText: 'Erasure carried out' })
      .waitFor();
    await settle(page);
    await lookAtWidths(page, shots, 'audit-log-erasure');
    // the log's labels and recorded changes keep no copy of the erased name (the scrub is a job
    // committed with the erasure); who acted stays as it was recorded
    await expect
      .poll(
        async () => {
          const res = await admin.api.get('/api/audit-actions/', { params: { page_size: 100 } });
          expect(res.status()).toBe(200);
          const body: { count: number; results: { object_repr: string; changes: unknown }[] } =
            await res.json();
          expect(body.count).toBeGreaterThan(0);
          return JSON.stringify(body.results.map((a) => [a.object_repr, a.changes]));
        },
        { timeout: 15_000 },
      )
      .not.toContain('Erasmus');
  }, 300_000);
});
