import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, lookAtWidths, lookLightAndDark, settle, signedIn } from './helpers';

// Escalated checks (issue 33): the ops dashboard counts the open ones and links to their list;
// the list at phone and desktop width, light and dark (its rows given by the test: the demo has
// no check past its expected date); the subjects list leads a customer to erasure requests.

const shots = join(import.meta.dirname, '..', 'test-results', 'ops-escalations');
mkdirSync(shots, { recursive: true });

const row = (id: number, over: Record<string, unknown>) => ({
  id,
  customer_id: 1,
  customer_name: 'Acme Care Ltd',
  case_id: 100 + id,
  subject_id: 10 + id,
  subject_name: 'Grace Okafor',
  activity_id: 200 + id,
  check: 'Basic DBS check',
  state: 'ca-in-progress',
  expected_on: '2026-11-12',
  days_overdue: 17,
  escalated_at: '2026-11-13T01:00:00.000Z',
  resolved_at: null,
  ...over,
});

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('escalated checks', () => {
  it('the dashboard counts them and links to the list; the list filters and reads at 360 px', async () => {
    const { context, page } = await signedIn(browser, 'ops@kestrel.test');
    await page.goto('/ops/dashboard');
    await settle(page);
    const figure = page.getByTestId('figure-Escalated checks');
    await figure.waitFor();
    await figure.getByRole('link').click();
    await page.waitForURL((url) => url.pathname === '/ops/escalations');
    await page.getByRole('heading', { name: 'Escalations', level: 1 }).waitFor();
    // the real list: empty on a fresh demo, but other files share this server and move the
    // simulated clocks, so a check of theirs may be past its date by now
    await page.getByText('No open escalations').or(page.getByRole('row').nth(1)).first().waitFor();
    expect(await page.getByRole('link', { name: 'Escalations' }).count()).toBeGreaterThan(0);

    await page.route(
      (url) => url.pathname === '/api/ops/escalations/',
      (route) =>
        route.fulfill({
          json: {
            count: 3,
            results: [
              row(1, {}),
              row(2, {
                customer_name: 'Northgate Borough Council',
                subject_name: 'Liam Murphy',
                check: 'DVLA licence check',
                days_overdue: 1,
              }),
              row(3, { days_overdue: 2, resolved_at: '2026-11-20T09:00:00.000Z' }),
            ],
          },
        }),
    );
    await page.locator('.mantine-SegmentedControl-label', { hasText: /^All$/ }).click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'all');
    await page.getByTestId('escalation-1').waitFor();
    expect(
      await page
        .getByTestId('escalation-1')
        .getByRole('link', { name: 'Basic DBS check' })
        .getAttribute('href'),
    ).toBe('/ops/outstanding-activities/201');
    await lookAtWidths(page, shots, 'list');
    await lookLightAndDark(page, 'ops@kestrel.test', shots, 'list');
    await context.close();
  }, 300_000);

  it('the subjects list links to erasure requests', async () => {
    const { context, page } = await signedIn(browser, 'admin@acme.test');
    await page.goto('/subjects');
    await settle(page);
    await page.getByRole('link', { name: 'Erasure requests' }).click();
    await page.waitForURL((url) => url.pathname === '/subjects/data-requests');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await context.close();
  }, 120_000);
});
