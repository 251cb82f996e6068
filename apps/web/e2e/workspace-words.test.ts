import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, screenshot, signedIn } from './helpers';

// Issue 14's words: the audit log in human words with 'System' for the system, the subject's
// account in the same words on the list and the page, a flag resolved by the system 'by
// System'; each screen looked at on a phone and a desktop, light and dark.

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

const VIEWPORTS = [
  ['desktop', { width: 1280, height: 900 }],
  ['phone', { width: 360, height: 780 }],
] as const;

async function shots(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.evaluate(
      (s) => document.documentElement.setAttribute('data-mantine-color-scheme', s),
      scheme,
    );
    await screenshot(page, `${name}-${scheme}`);
  }
  await page.evaluate(() =>
    document.documentElement.setAttribute('data-mantine-color-scheme', 'light'),
  );
}

describe('words on the workspace screens', () => {
  for (const [size, viewport] of VIEWPORTS) {
    it(`audit log, subjects and flags in words (${size})`, async () => {
      const { context, page } = await signedIn(browser, 'admin@acme.test', { viewport });

      await page.goto('/audit-log');
      await page.getByRole('heading', { name: 'Audit log' }).waitFor();
      await page.getByText('Logged in').first().waitFor();
      const log = (await page.locator('main').textContent()) ?? '';
      expect(log).not.toMatch(/logged_in|users\.productuser|cases\.case\b/);
      expect(log).toContain('User #');
      await shots(page, `words-audit-log-${size}`);

      await page.goto('/subjects');
      await page.getByRole('heading', { name: 'Subjects' }).waitFor();
      await page.getByText('No account yet').first().waitFor();
      expect(await page.getByText('Invited', { exact: true }).count()).toBe(0);
      await shots(page, `words-subject-list-${size}`);

      await page.goto('/flags');
      await page.getByRole('heading', { name: 'Flags' }).waitFor();
      await page.locator('label', { hasText: /^Resolved$/ }).click();
      await page.getByText('Email bounced').first().waitFor();
      const flags = (await page.locator('main').textContent()) ?? '';
      expect(flags).toMatch(/by System/);
      expect(flags).not.toMatch(/by system/);
      await shots(page, `words-flags-${size}`);

      await page.goto('/dashboard');
      await page.getByText(/Welcome back, Alex/).waitFor();
      await shots(page, `words-dashboard-${size}`);
      await context.close();
    });
  }
});
