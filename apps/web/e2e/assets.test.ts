import type { Browser } from 'playwright-core';
import { request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, signedIn } from './helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

describe('built assets', () => {
  // The build puts hashed scripts under /js/ and styles under /css/ (spec point 9); the server
  // must send them with a one-year immutable cache and the page itself with no-cache.
  it('are sent compressed, hashed files with long-lived cache headers', async () => {
    const api = await request.newContext({ baseURL: baseUrl() });
    // a page the server does not pre-render: /login's first paint has its stylesheet inlined
    const html = await (await api.get('/signup')).text();
    const script = /src="(\/js\/[^"]+\.js)"/.exec(html)?.[1];
    const style = /href="(\/css\/[^"]+\.css)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    expect(style).toBeTruthy();
    for (const path of [script, style]) {
      const res = await api.get(path ?? '', { headers: { 'Accept-Encoding': 'br, gzip' } });
      expect(res.status(), path).toBe(200);
      expect(res.headers()['content-encoding'], path).toMatch(/^(br|gzip)$/);
      expect(res.headers()['cache-control'], path).toMatch(/max-age=31536000/);
    }
    const index = await api.get('/login');
    expect(index.headers()['cache-control']).toMatch(/no-cache|no-store|max-age=0/);
    await api.dispose();
  });

  it('shows a reload message when a screen fails to load', async () => {
    const { context, page } = await signedIn(browser, 'admin@acme.test');
    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.route(/\/js\/support-page-[^/]+\.js$/, (route) => route.abort('failed'));
    await page.getByRole('link', { name: 'Support' }).click();
    await page.getByTestId('chunk-error').waitFor();
    await page.getByRole('button', { name: 'Reload the page' }).waitFor();
    await context.close();
  });
});
