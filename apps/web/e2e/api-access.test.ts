import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, type Page, request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARE_WORKER_CHECKS, newWorld, type World } from './fixtures';
import {
  type Api,
  baseUrl,
  launch,
  lookAtWidths,
  reloadInScheme,
  screenshotDir,
  setDark,
  settle,
} from './helpers';

// An API for customers' own systems (issue 33): the administrator makes an API key under the
// Organisation account and lists cases with it (a bearer header, no cookie); adds a webhook
// endpoint pointing at a receiver started here; a case opened then arrives signed (checked with
// the documented scheme) and shows in the endpoint's log. Screens at 1280 and 360 px, light and
// dark, axe clean.

const shots = join(screenshotDir, 'api-access');
mkdirSync(shots, { recursive: true });

interface Received {
  signature: string;
  body: string;
}

let browser: Browser;
let world: World;
let admin: Api;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];

/** The receiver's check, from the documented scheme (docs/api-contract.md). */
function verify(secret: string, header: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const sent = Buffer.from(parts.v1 ?? '', 'hex');
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        signature: String(req.headers['kestrel-signature'] ?? ''),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/kestrel`;
  browser = await launch();
  world = await newWorld({
    processes: [{ name: 'Care worker onboarding', requirements: CARE_WORKER_CHECKS }],
    subjects: [{ key: 'sam', firstName: 'Sam', lastName: 'Hook' }],
  });
  admin = await world.api('admin');
}, 300_000);
afterAll(async () => {
  if (admin) await setDark(admin, false);
  await world?.dispose();
  await browser?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function look(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await reloadInScheme(page, admin, scheme);
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await lookAtWidths(page, shots, `${name}-${scheme}`);
  }
  await setDark(admin, false);
  await page.reload();
  await settle(page);
}

const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').getByText(text, { exact: true }).waitFor();

describe('API keys and webhooks', () => {
  it('makes a key that lists cases, and a webhook endpoint that hears of a new case, signed', async () => {
    const { page } = await world.signedIn(browser, 'admin');
    await page.goto('/customer-account');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await settle(page);

    // an API key with one permission; its secret shown once
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.getByLabel('Name').fill('HR system');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await toast(page, 'API key created.');
    const secret = (await page.getByTestId('secret-once').textContent()) ?? '';
    expect(secret).toMatch(/^kst_/);

    // the key lists the organisation's cases through the API: no cookie, no CSRF token
    const caseId = await world.openCase('Care worker onboarding', 'sam');
    const client = await request.newContext({ baseURL: baseUrl(world.host) });
    const cases = await client.get('/api/cases/', {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(cases.status()).toBe(200);
    expect((await cases.json()).results.map((c: { id: number }) => c.id)).toContain(caseId);
    const outside = await client.get('/api/subjects/', {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(outside.status()).toBe(403);
    await client.dispose();

    // a webhook endpoint at the receiver; its secret shown once
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const add = page.getByRole('dialog', { name: 'Add webhook endpoint' });
    await add.getByLabel('URL').fill(receiverUrl);
    await add.getByLabel('Description').fill('HR system: new starters');
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    await toast(page, 'Webhook endpoint added.');
    const hookSecret = (await page.getByTestId('secret-once').last().textContent()) ?? '';
    expect(hookSecret).toMatch(/^whsec_/);

    // a case opened now arrives signed
    const second = await world.openCase('Care worker onboarding', 'sam');
    await expect
      .poll(
        () =>
          received.find((r) => {
            const body = JSON.parse(r.body);
            return body.type === 'case.created' && body.data.case.id === second;
          }) ?? null,
        { timeout: 30_000 },
      )
      .not.toBeNull();
    const delivery = received.find((r) => JSON.parse(r.body).data?.case?.id === second);
    expect(verify(hookSecret, delivery?.signature ?? '', delivery?.body ?? '')).toBe(true);
    expect(verify(`${hookSecret}x`, delivery?.signature ?? '', delivery?.body ?? '')).toBe(false);

    // and shows in the endpoint's log
    await page.reload();
    await settle(page);
    await page.getByRole('button', { name: 'Deliveries' }).click();
    const log = page.getByRole('table', { name: 'Deliveries' });
    await log.getByText('Case created').first().waitFor();
    await log.getByText('delivered').first().waitFor();
    await look(page, 'customer-account-api-access');
  });
});
