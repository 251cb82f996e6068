import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browser, ops, setDarkMode, settle, setUpBrowser, WIDE } from './every-screen';
import { screenshotDir, signedIn, steady } from './helpers';

// Every operations screen (issue 29) on a 360 px phone and at 1280 px, light and dark: the page
// never scrolls sideways (a wide table scrolls in its own box or stacks its rows; filters wrap).
// The screens are every-screen's ops list (axe runs there, at 1280 px), plus the two screens it
// leaves to their own journeys. A full-page screenshot of each, to look at.

setUpBrowser();

const USER = 'ops@kestrel.test';
const PHONE_360 = { width: 360, height: 780 };

/** How far the page reaches past the viewport, sideways (0 when it fits). */
const overflow = (page: Page) =>
  page.evaluate(() =>
    Math.max(
      document.documentElement.scrollWidth - window.innerWidth,
      document.body.scrollWidth - window.innerWidth,
    ),
  );

/** The elements that reach past the viewport's right edge (to say what overflows). */
const widest = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(-3)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 80)),
  );

const shots = join(screenshotDir, 'ops-phone');

describe.each(['light', 'dark'] as const)('every ops screen in %s', (scheme) => {
  it('fits a 360 px phone and 1280 px without scrolling sideways', async () => {
    mkdirSync(shots, { recursive: true });
    const paths = [...(await ops()), '/ops/escalations', '/ops/trust-2-ride'];
    await setDarkMode(USER, scheme === 'dark');
    try {
      const { context, page } = await signedIn(browser(), USER, { viewport: PHONE_360 });
      const found: Record<string, unknown> = {};
      for (const path of paths) {
        await page.setViewportSize(PHONE_360);
        await page.goto(path);
        await settle(page);
        expect(
          await page.evaluate(() => document.documentElement.dataset.mantineColorScheme),
          path,
        ).toBe(scheme);
        const name = path.replace(/\W+/g, '-').replace(/^-|-$/g, '');
        for (const [size, viewport] of [
          ['360', PHONE_360],
          ['1280', WIDE],
        ] as const) {
          if (size === '1280') {
            await page.setViewportSize(viewport);
            await steady(page);
          }
          const over = await overflow(page);
          if (over > 0) found[`${path} ${size}`] = { over, widest: await widest(page) };
          await page.screenshot({
            path: join(shots, `${name}-${scheme}-${size}.png`),
            fullPage: true,
          });
        }
      }
      expect(found).toEqual({});
      await context.close();
    } finally {
      await setDarkMode(USER, false);
    }
  }, 300_000);
});
