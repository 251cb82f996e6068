import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, WORLD_PASSWORD, type World } from './fixtures';
import { launch, loginUi, newPage } from './helpers';

// Issue 26: on a phone the month select cut its names off ('Novem'). Every month name must fit
// inside the select (its width less the padding that holds the chevron) at phone widths.
const SHOTS = process.env.KESTREL_SHOTS_DIR;

// The subject without a date of birth is a world's own (e2e/fixtures.ts), not the demo subject.
let browser: Browser;
let world: World;
beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    subjects: [{ key: 'subject', firstName: 'Sam', lastName: 'World', dob: null }],
  });
});
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

/** The widest option text of a select and the room its box leaves for text, in CSS pixels. */
function fit(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate((el) => {
    const select = el as HTMLSelectElement;
    const style = getComputedStyle(select);
    const ctx = document.createElement('canvas').getContext('2d');
    if (!ctx) throw new Error('no canvas');
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const widest = Math.max(...[...select.options].map((o) => ctx.measureText(o.text).width));
    const room =
      select.clientWidth -
      Number.parseFloat(style.paddingLeft) -
      Number.parseFloat(style.paddingRight);
    return { widest: Math.ceil(widest), room: Math.floor(room) };
  });
}

describe('the date selector on a phone', () => {
  it('shows whole month names at 320 to 390 px and at a desk', async () => {
    // The world's subject has no date of birth, so complete-profile asks for it.
    const { context, page } = await newPage(browser, { viewport: { width: 320, height: 720 } });
    try {
      await loginUi(
        page,
        world.username('subject'),
        WORLD_PASSWORD,
        '/login?next=%2Fs%2Fcases&subject=y',
      );
      await page.waitForURL('**/s/complete-profile?**');
      await page.getByTestId('date-year').selectOption('1990');
      await page.getByTestId('date-month').selectOption('9');
      for (const width of [320, 360, 375, 390, 1280]) {
        await page.setViewportSize({ width, height: 720 });
        await page.getByTestId('date-month').selectOption('11');
        if (SHOTS) await page.screenshot({ path: `${SHOTS}/date-selector-${width}.png` });
        for (const month of ['9', '11']) {
          await page.getByTestId('date-month').selectOption(month);
          const { widest, room } = await fit(page, 'date-month');
          expect(widest, `month names at ${width} px`).toBeLessThanOrEqual(room);
        }
        expect((await fit(page, 'date-year')).widest).toBeLessThanOrEqual(
          (await fit(page, 'date-year')).room,
        );
        // Nothing spills sideways out of the page.
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `horizontal overflow at ${width} px`).toBe(0);
      }
    } finally {
      await context.close();
    }
  });
});
