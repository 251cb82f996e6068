import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, screenshot, screenshotDir, signedIn } from './helpers';

// Print on a case prints the case report (brand, case, subject, process, dates, every check with
// its state and result, the decision), not the screen with its sidebar, buttons and toasts.

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

/** A complete case, read with the signed-in page's session (no extra login: they are limited). */
async function completeCase(api: APIRequestContext): Promise<{ id: number; checks: number }> {
  const list = await (await api.get('/api/cases/?state=complete&page_size=1')).json();
  const id = list.results[0]?.id as number;
  const detail = await (await api.get(`/api/cases/${id}/`)).json();
  return { id, checks: detail.case_activities.length };
}

/** What is visible of the page when it is printed. */
async function printed(page: Page) {
  await page.emulateMedia({ media: 'print' });
  const shown = {
    report: await page.getByTestId('case-report').isVisible(),
    sidebar: await page.getByRole('navigation').first().isVisible(),
    printButton: await page.getByRole('button', { name: 'Print' }).isVisible(),
    toasts: await page.locator('.mantine-Notifications-root').first().isVisible(),
  };
  return shown;
}

describe('print a case', () => {
  for (const host of ['localhost', '127.0.0.1'] as const) {
    it(`prints the case report in the brand of ${host}, and logs pdf_generated`, async () => {
      const { context, page } = await signedIn(browser, 'admin@acme.test', { host });
      const { id, checks } = await completeCase(page.request);
      // The print dialog would block a headless browser: count the calls instead.
      await page.addInitScript(() => {
        const w = window as Window & { printed?: number };
        w.printed = 0;
        window.print = () => {
          w.printed = (w.printed ?? 0) + 1;
        };
      });
      await page.goto(`/cases/${id}`);
      await page.getByRole('heading', { name: `Case #${id}` }).waitFor();
      // On screen the report is not there at all (no second copy of the case's words).
      expect(await page.getByTestId('case-report').count()).toBe(0);
      await page.getByRole('button', { name: 'Print' }).click();
      await expect
        .poll(() => page.evaluate(() => (window as Window & { printed?: number }).printed))
        .toBe(1);

      expect(await printed(page)).toEqual({
        report: true,
        sidebar: false,
        printButton: false,
        toasts: false,
      });
      const report = page.getByTestId('case-report');
      const brand = host === 'localhost' ? 'Kestrel Checks' : 'Harrier Vetting';
      await report.getByText(brand, { exact: true }).waitFor();
      await report.getByRole('heading', { name: `Case #${id}` }).waitFor();
      expect(await report.getByTestId('report-check').count()).toBe(checks);
      expect(await report.getByTestId('report-decision').textContent()).toMatch(
        /^(Satisfactory|Unsatisfactory) on \d/,
      );
      const slug = host === 'localhost' ? 'kestrel' : 'harrier';
      await page.screenshot({
        path: join(screenshotDir, `case-print-${slug}.png`),
        fullPage: true,
      });
      const pdf = await page.pdf({ format: 'A4', printBackground: true });
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      writeFileSync(join(screenshotDir, `case-print-${slug}.pdf`), pdf);

      // The action kept its audit entry.
      const audit = await (
        await page.request.get(`/api/audit-actions/?verb=pdf_generated&object_id=${id}`)
      ).json();
      expect(audit.count).toBeGreaterThan(0);

      // After printing the report goes; the browser's own print command brings it back.
      await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
      expect(await page.getByTestId('case-report').count()).toBe(0);
      await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
      expect(await printed(page)).toEqual({
        report: true,
        sidebar: false,
        printButton: false,
        toasts: false,
      });
      await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));

      // The screen itself, unchanged by the hidden report: phone and desktop, light and dark.
      await page.emulateMedia({ media: 'screen' });
      for (const [name, viewport] of [
        ['desktop', { width: 1280, height: 900 }],
        ['phone', { width: 360, height: 780 }],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.reload();
        await page.getByRole('heading', { name: `Case #${id}` }).waitFor();
        for (const scheme of ['light', 'dark'] as const) {
          await page.evaluate(
            (s) => document.documentElement.setAttribute('data-mantine-color-scheme', s),
            scheme,
          );
          await screenshot(page, `case-detail-${slug}-${name}-${scheme}`);
        }
      }
      await context.close();
    });
  }
});
