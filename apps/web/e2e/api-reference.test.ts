import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, DESKTOP, launch, newPage, PHONE, screenshot, writeScreenshots } from './helpers';

// The OpenAPI document as browsable reference pages (issue 33): Redoc's bundle, served by the
// server itself (nothing from another origin), under the page's CSP (no violation).

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

describe('the API reference pages', () => {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`render every operation from the server alone (${name})`, async () => {
      const { context, page } = await newPage(browser, { viewport });
      const origin = new URL(baseUrl()).origin;
      const elsewhere: string[] = [];
      const refused: string[] = [];
      page.on('request', (r) => {
        const url = r.url();
        if (!url.startsWith(origin) && !url.startsWith('blob:') && !url.startsWith('data:')) {
          elsewhere.push(url);
        }
      });
      page.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) {
          refused.push(m.text());
        }
      });
      await page.goto('/api/docs/reference/');
      await page
        .getByRole('heading', { name: /Kestrel API/ })
        .first()
        // the whole document is rendered in the page: 13 s alone, past 30 s on a loaded machine
        .waitFor({ timeout: 90_000 });
      // the operations' derived summaries, in the navigation (tags folded)
      await page.getByText('List cases', { exact: true }).first().waitFor({ state: 'attached' });
      expect(await page.getByText('Create a subject', { exact: true }).count()).toBeGreaterThan(0);
      if (name === 'desktop') {
        // the search (a worker made from a blob, allowed by the page's own CSP) finds one
        const search = page.getByPlaceholder('Search...');
        await search.fill('send reminder');
        await page.getByText('Case: send reminder').first().waitFor();
        await search.fill('');
      }
      if (writeScreenshots) await screenshot(page, `api-reference-${name}`);
      expect(elsewhere).toEqual([]);
      expect(refused).toEqual([]);
      await context.close();
    }, 90_000);
  }
});
