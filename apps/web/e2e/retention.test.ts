import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatDate } from '@kestrel/domain';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import {
  type Api,
  launch,
  lookAtWidths,
  lookLightAndDark,
  screenshotDir,
  send,
  settle,
} from './helpers';

// Retention and automatic redaction (issue 34): a customer's administrator sets a retention
// rule, the retention job's clock moves for this world's customer only, and the case's panels
// say 'Redacted on {date} under the retention policy'.

const shots = join(screenshotDir, 'retention');
mkdirSync(shots, { recursive: true });

let browser: Browser;
let world: World;
let admin: Api;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({});
  admin = await world.api('admin');
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

const DAY = 86_400_000;

describe('retention', () => {
  it('sets a rule, the clock moves, the panels show the redaction', async () => {
    const { page } = await world.signedIn(browser, 'admin');
    await page.goto('/customer-account');
    await page.getByRole('link', { name: 'Retention rules' }).click();
    await page.getByRole('heading', { name: 'Data retention', level: 1 }).waitFor();
    const months = page.getByLabel('Identity document images: months');
    await months.fill('1');
    await page.getByRole('button', { name: 'Save rules' }).click();
    await expect
      .poll(async () => {
        const s = (await (await admin.api.get('/api/customer-account/retention/')).json()) as {
          rules: { code: string; months: number }[];
        };
        return s.rules.find((r) => r.code === 'identity-images')?.months;
      })
      .toBe(1);
    await page.reload();
    // the records with a fixed period, read-only, below the rules
    const other = page.getByRole('region', { name: 'Other records' });
    await other.getByRole('heading', { name: 'Other records', level: 2 }).waitFor();
    expect(await other.getByTestId('other-outbox').textContent()).toContain(
      '30 days after they are sent',
    );
    expect(await other.getByTestId('other-access-log').textContent()).toContain(
      '24 months after the last view',
    );
    await settle(page);
    await lookAtWidths(page, shots, 'retention-rules');
    await lookLightAndDark(page, admin, shots, 'retention-rules');

    const made = (await send(admin, 'post', '/api/test-fixtures/retention-case/', {
      customer: world.customer.id,
    })) as { caseId: number; identityDocumentId: number };
    const caseId = made.caseId;

    // due in the next 30 days: nothing yet (a month and more away)
    await page.goto('/customer-account/retention/due');
    await page.getByRole('heading', { name: 'Due for redaction', level: 1 }).waitFor();
    await settle(page);
    await lookAtWidths(page, shots, 'retention-due');

    // a month and two days on: the identity images go, the DBS result stays (six months)
    const at = new Date(Date.now() + 33 * DAY);
    const run = await send(admin, 'post', '/api/test-fixtures/retention-due/', {
      customer: world.customer.id,
      at: at.toISOString(),
    });
    expect(run).toEqual({ redacted: 1, failed: 0 });
    expect(
      await send(admin, 'post', '/api/test-fixtures/retention-due/', {
        customer: world.customer.id,
        at: new Date(at.getTime() + DAY).toISOString(),
      }),
    ).toEqual({ redacted: 0, failed: 0 });

    await page.goto(`/cases/${caseId}`);
    await page.getByRole('heading', { name: `Case #${caseId}`, level: 1 }).waitFor();
    const notice = page.getByText(`Redacted on ${formatDate(at)} under the retention policy`);
    await notice.first().waitFor();
    expect(await notice.count()).toBe(1);
    await page.getByTestId('case-retention-card').waitFor();
    await settle(page);
    await lookAtWidths(page, shots, 'case-redacted');
    await lookLightAndDark(page, admin, shots, 'case-redacted');

    // a legal hold stops the rest: seven months on, the DBS result is kept
    await page.getByLabel('Reason for a legal hold').fill('Tribunal claim');
    await page.getByRole('button', { name: 'Set legal hold' }).click();
    await page.getByTestId('legal-hold-badge').waitFor();
    expect(
      await send(admin, 'post', '/api/test-fixtures/retention-due/', {
        customer: world.customer.id,
        at: new Date(Date.now() + 220 * DAY).toISOString(),
      }),
    ).toEqual({ redacted: 0, failed: 0 });
    const retention = (await (await admin.api.get(`/api/cases/${caseId}/retention/`)).json()) as {
      legal_hold: boolean;
      redactions: unknown[];
    };
    expect(retention).toMatchObject({ legal_hold: true });
    expect(retention.redactions).toHaveLength(1);
  }, 300_000);
});
