import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, DESKTOP, launch, lookAtWidths, signedIn } from './helpers';

// Operations open a customer's case by its address (issue 26): /cases/{id} outside that
// customer says where the case belongs and offers the ops session into its customer there; the
// case then opens in that customer's workspace.

const shots = join(import.meta.dirname, '..', 'test-results', 'ops-case-link');
mkdirSync(shots, { recursive: true });

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('a case link opened by operations', () => {
  it("offers the ops session into the case's customer, then shows the case", async () => {
    const admin = await apiAs('admin@acme.test');
    const list = await (await admin.api.get('/api/cases/', { params: { page_size: 1 } })).json();
    await admin.api.dispose();
    const id: number = list.results[0]?.id;
    expect(id).toBeGreaterThan(0);

    const { context, page } = await signedIn(browser, 'ops@kestrel.test');
    // a case that is nowhere: only 'not found'
    await page.goto('/cases/99999999');
    await page.getByText('This case could not be found.').waitFor();
    expect(await page.getByTestId('ops-case-elsewhere').count()).toBe(0);
    await page.goto(`/cases/${id}`);
    const offer = page.getByTestId('ops-case-elsewhere');
    await offer.waitFor();
    expect(await offer.textContent()).toContain(
      `Case #${id} belongs to Acme Care Ltd, not to the workspace you are in.`,
    );
    await lookAtWidths(page, shots, 'offer');
    expect(await page.getByText('This case could not be found.').count()).toBe(0);
    await page.setViewportSize(DESKTOP);
    await offer.getByRole('button', { name: 'Open the case as Acme Care Ltd' }).click();
    await page.waitForURL((url) => url.pathname === `/cases/${id}`);
    await page.getByRole('heading', { name: `Case #${id}`, level: 1 }).waitFor();
    expect(await page.getByTestId('ops-case-elsewhere').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'case-1280.png'), fullPage: false });
    await context.close();
  }, 300_000);
});
