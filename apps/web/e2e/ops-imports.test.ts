import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiAs,
  axeClean,
  DESKTOP,
  launch,
  loginUi,
  lookLightAndDark,
  newPage,
  reloadInScheme,
  setDark,
  steady,
} from './helpers';

// Operations import 1,000 subjects for Acme from a CSV with 3 bad rows: the 3 are reported by row
// and field, nothing else is lost, and "valid rows only" imports the other 997.

const OPS = 'ops@kestrel.test';
const shots = '/tmp/shots/imports';
mkdirSync(shots, { recursive: true });

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await setDark(OPS, false);
  await browser?.close();
});

/** Light and dark at 1280 px, axe clean in both (the profile's dark mode, reloaded). */
const look = (page: Page, name: string) => lookLightAndDark(page, OPS, shots, name);

/**
 * On a 360 px phone: how far the page reaches past the viewport, and the tables (or their boxes)
 * that scroll sideways inside themselves; then light and dark looked at, axe clean in both.
 */
async function lookOnPhone(page: Page, name: string) {
  await page.setViewportSize({ width: 360, height: 800 });
  await steady(page);
  for (const scheme of ['light', 'dark'] as const) {
    await reloadInScheme(page, OPS, scheme);
    await page.getByRole('table', { name: 'Preview' }).waitFor();
    const wide = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth - window.innerWidth,
      boxes: [...document.querySelectorAll('main table, main section')]
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map((el) => el.getAttribute('aria-label')),
      // what reaches past the viewport (none when it fits), to name the culprit
      over: [...document.querySelectorAll('main *')]
        // (a stacked table's headers stay for screen readers, clipped to nothing)
        .filter((el) => !el.closest('thead'))
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(-3)
        .map((el) => `${el.tagName} ${(el.textContent ?? '').slice(0, 40)}`),
    }));
    expect(wide, `${name} at 360 ${scheme}`).toEqual({ page: 0, boxes: [], over: [] });
    expect(await axeClean(page), `${name} at 360 ${scheme}`).toEqual([]);
    await page.screenshot({ path: `${shots}/${name}-360-${scheme}.png`, fullPage: true });
  }
  await setDark(OPS, false);
  await page.setViewportSize(DESKTOP);
  await page.reload();
  await steady(page);
}

/** Letters only (the subject schema refuses digits in names). */
const nameOf = (i: number) =>
  String.fromCharCode(65 + (i % 26)) +
  String.fromCharCode(97 + (Math.floor(i / 26) % 26)) +
  String.fromCharCode(97 + (Math.floor(i / 676) % 26));

function thousandWithThreeBad(stamp: number): string {
  const lines = ['First name,Last name,Email,Date of birth'];
  for (let i = 1; i <= 1_000; i += 1) {
    const email = `e2e${stamp}.${i}@import.test`;
    if (i === 10) lines.push(`${nameOf(i)},,${email},1990-01-01`);
    else if (i === 500) lines.push(`${nameOf(i)},Imported,not-an-email,1990-01-01`);
    else if (i === 999) lines.push(`${nameOf(i)},Imported,${email},31/12/1990`);
    else
      lines.push(`${nameOf(i)},Imported,${email},1990-01-${String((i % 28) + 1).padStart(2, '0')}`);
  }
  return `${lines.join('\n')}\n`;
}

describe('ops imports', () => {
  it('imports 1,000 subjects with 3 bad rows: reported, and 997 imported with valid rows only', async () => {
    const { context, page } = await newPage(browser);
    await loginUi(page, OPS, undefined, '/login?next=%2Fops%2Fimports');
    await page.waitForURL('**/ops/imports');
    await page.getByRole('heading', { name: 'Imports', level: 1 }).waitFor();
    // the demo's completed import is listed
    await page.getByRole('link', { name: 'acme-new-starters.csv' }).first().waitFor();
    await look(page, 'list');

    const stamp = Date.now();
    await page.getByRole('combobox', { name: 'Customer', exact: true }).click();
    await page.getByRole('option', { name: /Acme/ }).first().click();
    await page.locator('input[type=file]').setInputFiles({
      name: `people-${stamp}.csv`,
      mimeType: 'text/csv',
      buffer: Buffer.from(thousandWithThreeBad(stamp)),
    });
    await page.getByLabel('Import the valid rows only').check();
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/ops\/imports\/\d+$/);
    await page.getByRole('heading', { name: `Import: people-${stamp}.csv` }).waitFor();
    await page.getByText('1000 rows').waitFor();

    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByText('997 valid, 3 invalid, 0 imported').waitFor();
    const errors = page.getByRole('table').filter({ hasText: 'Field' });
    await expect.poll(() => errors.locator('tbody tr').count()).toBe(3);
    const cells = await errors
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((r) => [...r.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent)),
      );
    // the file's row numbers (the header is row 1)
    expect(cells).toEqual([
      ['11', 'last_name'],
      ['501', 'email'],
      ['1000', 'dob'],
    ]);
    await look(page, 'validated');
    // the preview and the errors stack into cards on a phone (each cell under its header)
    await lookOnPhone(page, 'validated');
    const firstRow = page.getByRole('table', { name: 'Preview' }).locator('tbody tr').first();
    await firstRow.waitFor();
    expect(
      await firstRow
        .locator('td')
        .evaluateAll((tds) => tds.map((td) => td.getAttribute('data-label'))),
    ).toEqual(['Row', 'First name', 'Last name', 'Email', 'Date of birth']);

    await page.getByRole('button', { name: 'Import 997 valid rows' }).click();
    await page.getByText('997 valid, 3 invalid, 997 imported').waitFor({ timeout: 300_000 });
    await page.getByRole('link', { name: 'Download the result report (CSV)' }).waitFor();
    await look(page, 'completed');

    // nothing else lost: the report has 1,000 rows, 997 imported
    const { api } = await apiAs(OPS);
    const id = page.url().split('/').pop();
    const report = await api.get(`/api/ops/imports/${id}/report/`);
    expect(report.status()).toBe(200);
    const lines = (await report.text()).trim().split('\r\n').slice(1);
    expect(lines).toHaveLength(1_000);
    expect(lines.filter((l) => l.includes(',imported,'))).toHaveLength(997);
    await api.dispose();
    await context.close();
  }, 480_000);
});
