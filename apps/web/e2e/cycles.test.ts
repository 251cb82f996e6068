import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import { type Api, launch, lookAtWidths, send, settle } from './helpers';

// Cycles and subscriptions (issue 31): a process's cycles, the add form, all subscriptions and
// a subject's subscriptions tab, at 1280 px and 360 px, axe clean.

const shots = '/tmp/shots/cycles';

let browser: Browser;
let world: World;
let admin: Api;

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    entitlements: ['cycles'],
    processes: [{ name: 'Drivers', requirements: ['dbs-update', 'driver-data'] }],
    subjects: [{ key: 'sam', firstName: 'Sam', lastName: 'Green' }],
  });
  admin = await world.api('admin');
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

describe('cycles and subscriptions screens', () => {
  it('shows the cycles, the add form, the subscriptions and the subject tab', async () => {
    const processId = world.processes.Drivers;
    const subjectId = world.subjects.sam?.id;
    const cycle = await send(admin, 'post', `/api/processes/${processId}/cycles/`, {
      name: 'Update service',
      requirements: ['dbs-update', 'driver-data'],
      repeat_interval: 6,
      repeat_unit: 'monthly',
      billing_interval: 1,
      billing_triggered: 'yearly',
    });
    await send(admin, 'post', `/api/subjects/${subjectId}/subscriptions/`, {
      cycle: (cycle as { id: number }).id,
    });
    const { page } = await world.signedIn(browser, 'admin');
    await page.goto(`/processes/${processId}/cycles`);
    await settle(page);
    await expect.poll(() => page.getByText('Every 6 months').count()).toBeGreaterThan(0);
    await lookAtWidths(page, shots, 'cycles');
    await page.goto(`/processes/${processId}/cycles/add`);
    await settle(page);
    await lookAtWidths(page, shots, 'cycle-add');
    await page.goto('/subscriptions');
    await settle(page);
    await expect.poll(() => page.getByText('Sam Green').count()).toBeGreaterThan(0);
    await lookAtWidths(page, shots, 'subscriptions');
    await page.goto(`/subjects/${subjectId}/subscriptions`);
    await settle(page);
    await expect.poll(() => page.getByText('Update service').count()).toBeGreaterThan(0);
    await lookAtWidths(page, shots, 'subject-subscriptions');
    await page.goto(`/subjects/${subjectId}/subscriptions/add`);
    await settle(page);
    await lookAtWidths(page, shots, 'subject-subscription-add');
  });
});
