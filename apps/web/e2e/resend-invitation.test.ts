import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, launch, lookAtWidths, signedIn } from './helpers';

// The README's invited person (issue 26): jordan.lee@example.test's invitation is in the outbox
// after the first start, and customer staff resend it from his page and from his case.

const shots = join(import.meta.dirname, '..', 'test-results', 'resend-invitation');
mkdirSync(shots, { recursive: true });
const JORDAN = 'jordan.lee@example.test';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const look = (page: Page, name: string) => lookAtWidths(page, shots, name);

describe('resending an invitation', () => {
  it("from the invited person's page and from the case, each confirmed and in the outbox", async () => {
    const ops = await apiAs('ops@kestrel.test');
    const admin = await apiAs('admin@acme.test');
    const outbox = async () =>
      (await (await ops.api.get('/api/ops/outbox/', { params: { to: JORDAN } })).json()).count;
    // the seed's invitation, sent by the first start's jobs
    await expect.poll(outbox, { timeout: 30_000 }).toBe(1);
    const found = await (
      await admin.api.get('/api/subjects/', { params: { search: JORDAN } })
    ).json();
    const subjectId: number = found.results[0]?.id;
    const caseList = await (
      await admin.api.get('/api/cases/', { params: { subject: subjectId } })
    ).json();
    const caseId: number = caseList.results[0]?.id;
    expect([subjectId > 0, caseId > 0]).toEqual([true, true]);

    const { context, page } = await signedIn(browser, 'admin@acme.test');
    await page.goto(`/subjects/${subjectId}`);
    await look(page, 'subject-page');
    await page.getByRole('button', { name: 'Resend invitation' }).click();
    await page.getByText('Invitation sent').waitFor();
    await page.screenshot({ path: join(shots, 'subject-page-sent-1280.png') });
    await expect.poll(outbox, { timeout: 30_000 }).toBe(2);

    await page.goto(`/cases/${caseId}`);
    await page.getByRole('heading', { name: `Case #${caseId}`, level: 1 }).waitFor();
    await look(page, 'case-page');
    await page.getByTestId('resend-invitation').click();
    await page.getByText('Invitation sent').waitFor();
    await expect.poll(outbox, { timeout: 30_000 }).toBe(3);
    const mails = await (await ops.api.get('/api/ops/outbox/', { params: { to: JORDAN } })).json();
    for (const m of mails.results as { text: string }[]) {
      expect(m.text).toMatch(/\/auth\/claim-account\?token=\S+/);
    }
    await context.close();
    await ops.api.dispose();
    await admin.api.dispose();
  }, 300_000);
});
