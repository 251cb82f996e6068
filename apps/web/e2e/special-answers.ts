import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { World } from './fixtures';
import { lookAtWidths, send } from './helpers';

// What kinds-special-answers*.test.ts share: the providers' special answers (issue 27) driven by
// the simulators' test data, looked at for the customer and the person in /tmp/shots/d/.

export const shots = '/tmp/shots/d';
mkdirSync(shots, { recursive: true });

export type Activity = {
  id: number;
  activity_type: string;
  state: string;
  result_data: Record<string, unknown>;
};

/** The activity `code` of a case of the world, as customer staff (`admin`) read it. */
export async function activityOf(world: World, caseId: number, code: string): Promise<Activity> {
  const admin = await world.api('admin');
  const res = await admin.api.get(`/api/cases/${caseId}/`);
  expect(res.status()).toBe(200);
  const a = ((await res.json()).case_activities as Activity[]).find(
    (x) => x.activity_type === code,
  );
  if (!a) throw new Error(`no ${code} on case ${caseId}`);
  return a;
}

/**
 * The person `key` gives the DVLA mandate for each of `codes` (driver data, licence check) and
 * submits the case, through the portal's API.
 */
export async function submitDriver(world: World, key: string, caseId: number, codes: string[]) {
  const subject = await world.api(key);
  for (const code of codes) {
    const a = await activityOf(world, caseId, code);
    await send(subject, 'post', '/api/s/consents/', {
      case: caseId,
      case_activity: a.id,
      kind: 'driver-data',
    });
  }
  const portal = await (await subject.api.get(`/api/s/case-portal/${caseId}/`)).json();
  const sections: string[] = portal.portal.sections;
  await send(subject, 'patch', `/api/s/case-portal/${caseId}/`, {
    portal_last_completed_section: sections[sections.indexOf('review') - 1],
  });
  await send(subject, 'post', `/api/s/case-portal/${caseId}/submit/`, {});
}

/** `page` at `path` with the panels `testIds` shown, then looked at (1280 and 360 px, axe). */
export async function look(page: Page, path: string, testIds: string[], name: string) {
  await page.goto(path);
  for (const id of testIds) await page.getByTestId(id).first().waitFor({ timeout: 15_000 });
  await page.waitForLoadState('networkidle');
  await expect.poll(() => page.locator('.mantine-Skeleton-root').count()).toBe(0);
  await lookAtWidths(page, shots, name);
}

/** The text of the first element of `testId`. */
export const text = async (page: Page, testId: string) =>
  (await page.getByTestId(testId).first().textContent()) ?? '';

/** Today, 'YYYY-MM-DD' (UTC). */
export const today = () => new Date().toISOString().slice(0, 10);
