import { mkdirSync } from 'node:fs';
import { formatDate } from '@kestrel/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import { DESKTOP, launch, lookAtWidths, PHONE, send, steady } from './helpers';

// Issue 27, trust-to-ride end to end on a world of its own: operations add a session at
// /ops/trust-2-ride (one place); the subject books it from the case page on a phone; a second
// person is refused (the session is full); the session is held (operations edit it to this
// minute); operations record the attendance in the session's register; the customer's and the
// subject's panels say 'Attended the session on {date}'. Screenshots in /tmp/shots/trust-to-ride.

const shots = '/tmp/shots/trust-to-ride';
mkdirSync(shots, { recursive: true });

let browser: Browser;
let world: World;
let secondCase = 0;
beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    ops: true,
    subjects: [{ key: 'second', firstName: 'Rosa', lastName: 'Second' }],
    withCase: ['trust-to-ride'],
  });
  secondCase = await world.openCase('World checks', 'second');
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

const look = (page: Page, name: string) => lookAtWidths(page, shots, name);

/**
 * The ops `table` at 1280 and 360 px, light then dark: on the phone it stacks into cards (rows
 * are blocks) and neither the page nor the table scrolls sideways.
 */
async function lookOps(page: Page, name: string, table: string) {
  const ops = await world.api('ops');
  for (const dark of [false, true]) {
    if (dark) {
      await send(ops, 'put', '/api/user/', { dark_mode: true });
      await page.reload();
    }
    await page.getByRole('table', { name: table }).waitFor();
    await look(page, dark ? `${name}-dark` : name);
    await page.setViewportSize({ ...PHONE, width: 360 });
    // measured once the phone layout has drawn (not mid-resize)
    await steady(page);
    const fit = await page.getByRole('table', { name: table }).evaluate((el) => ({
      page: document.documentElement.scrollWidth - window.innerWidth,
      table: el.scrollWidth - el.clientWidth,
      rows: getComputedStyle(el.querySelector('tbody tr') ?? el).display,
    }));
    expect(fit, `${name} at 360`).toEqual({ page: 0, table: 0, rows: 'block' });
    await page.setViewportSize(DESKTOP);
  }
  await send(ops, 'put', '/api/user/', { dark_mode: false });
  await page.reload();
  await page.getByRole('table', { name: table }).waitFor();
}
const day = (d: Date) => d.toISOString().slice(0, 10);
/** A date as the panels show it. */
const shown = (iso: string) => formatDate(iso);

async function activityOf(caseId: number, key = 'admin') {
  const res = await (await world.api(key)).api.get(`/api/cases/${caseId}/`);
  const list = (await res.json()).case_activities as {
    id: number;
    activity_type: string;
    state: string;
  }[];
  const a = list.find((x) => x.activity_type === 'trust-to-ride');
  if (!a) throw new Error('no trust-to-ride activity');
  return a;
}

describe('trust-to-ride', () => {
  it('ops add a session, the subject books it on a phone, ops record the attendance', async () => {
    const tomorrow = day(new Date(Date.now() + 24 * 60 * 60 * 1000));
    // a place of its own each attempt (CI runs a failed journey once more on the same server)
    const place = `Town Hall ${world.customer.id}-${Date.now().toString(36)}, Room 4`;
    // another session whose place is one long word: on a phone its card wraps it rather than
    // scrolling sideways (CI's run of a2c3200 found the list 9 px too wide at 360)
    await send(await world.api('ops'), 'post', '/api/ops/trust-to-ride/sessions/', {
      customer: world.customer.id,
      date: day(new Date(Date.now() + 2 * 24 * 60 * 60 * 1000)),
      time: '09:00',
      place: `Kirkby-in-Ashfield-Community-Centre-Annexe-${world.customer.id}`,
      capacity: 20,
    });
    // operations add a session of one place
    const ops = await world.signedIn(browser, 'ops');
    await ops.page.goto('/ops/trust-2-ride');
    await ops.page.getByRole('button', { name: 'Add session' }).click();
    const form = ops.page.getByTestId('session-form');
    await form.getByLabel(/^Customer/).selectOption({ label: world.customer.name });
    await form.getByLabel(/^Date/).fill(tomorrow);
    await form.getByLabel(/^Time/).fill('10:30');
    await form.getByLabel(/^Place/).fill(place);
    await form.getByLabel(/^Capacity/).fill('1');
    await look(ops.page, 'ops-add-session');
    await form.getByRole('button', { name: 'Add session' }).click();
    await ops.page.getByText('Successfully added session').waitFor();
    const row = ops.page.getByRole('row').filter({ hasText: place });
    await row.waitFor();
    expect(await row.textContent()).toContain('0 / 1');
    await lookOps(ops.page, 'ops-sessions', 'Trust to ride sessions');

    // the subject books it from the case page, on a phone
    const person = await world.signedIn(browser, 'subject', { viewport: PHONE });
    await person.page.goto(`/s/cases/${world.caseId}`);
    const booking = person.page.getByTestId('trust-to-ride-booking');
    await booking.getByRole('radio', { name: new RegExp(place) }).check();
    await person.page.screenshot({ path: `${shots}/subject-choose-390.png`, fullPage: true });
    await booking.getByRole('button', { name: 'Book this session' }).click();
    await person.page.getByText('Your place is booked').first().waitFor();
    const outcome = person.page.getByTestId('trust-to-ride-outcome');
    await expect
      .poll(() => outcome.textContent())
      .toBe(`Booked on the session on ${shown(tomorrow)} at 10:30, ${place}`);
    await look(person.page, 'subject-booked');
    await person.context.close();

    // the session is full: another person's booking is refused
    const second = await world.api('second');
    const other = await activityOf(secondCase);
    const sessions = await (
      await second.api.get(`/api/s/trust-to-ride/activities/${other.id}/`)
    ).json();
    // the full session is not offered (the long-named one with places is)
    const offered = (sessions.sessions ?? []) as { place: string }[];
    expect(offered.map((s) => s.place)).toEqual([
      `Kirkby-in-Ashfield-Community-Centre-Annexe-${world.customer.id}`,
    ]);
    const refused = await second.api.post(`/api/s/trust-to-ride/activities/${other.id}/booking/`, {
      data: { session: await sessionId(place) },
      headers: { 'X-CSRFToken': second.csrf() },
    });
    expect(refused.status()).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('This session is full.');

    // the session is held now: operations edit it to this minute, then record the attendance
    await row.getByRole('link').click();
    await ops.page.getByRole('button', { name: 'Edit session' }).click();
    const held = new Date(Date.now() - 60_000);
    const edit = ops.page.getByTestId('session-form');
    await edit.getByLabel(/^Date/).fill(day(held));
    await edit.getByLabel(/^Time/).fill(held.toISOString().slice(11, 16));
    await edit.getByRole('button', { name: 'Save session' }).click();
    await ops.page.getByText('Successfully updated session').waitFor();
    const register = ops.page.getByRole('table', { name: 'Attendance register' });
    await register.getByRole('button', { name: 'Attended', exact: true }).click();
    await ops.page.getByText('Successfully updated booking').waitFor();
    await expect.poll(() => register.textContent()).toContain('Attended');
    await lookOps(ops.page, 'ops-register', 'Attendance register');
    await ops.context.close();

    const a = await activityOf(world.caseId);
    expect(a.state).toBe('ca-complete');
    const said = `Attended the session on ${shown(day(held))}`;
    const staff = await world.signedIn(browser, 'admin');
    await staff.page.goto(`/cases/${world.caseId}`);
    await expect
      .poll(() => staff.page.getByTestId('trust-to-ride-outcome').textContent(), {
        timeout: 15_000,
      })
      .toBe(said);
    await look(staff.page, 'customer-attended');
    await send(await world.api('admin'), 'put', '/api/user/', { dark_mode: true });
    await staff.page.reload();
    await staff.page.getByTestId('trust-to-ride-outcome').waitFor();
    await look(staff.page, 'customer-attended-dark');
    await staff.context.close();
    const subjectPage = await world.signedIn(browser, 'subject', { viewport: PHONE });
    await subjectPage.page.goto(`/s/cases/${world.caseId}`);
    await expect
      .poll(() => subjectPage.page.getByTestId('trust-to-ride-outcome').textContent(), {
        timeout: 15_000,
      })
      .toBe(said);
    await look(subjectPage.page, 'subject-attended');
    await subjectPage.context.close();
  }, 300_000);
});

/** The id of the world's session at `place` (operations' list). */
async function sessionId(place: string): Promise<number> {
  const ops = await world.api('ops');
  const res = await ops.api.get('/api/ops/trust-to-ride/sessions/', {
    params: { customer: world.customer.id, page_size: 50 },
  });
  const found = ((await res.json()).results as { id: number; place: string }[]).find(
    (s) => s.place === place,
  );
  if (!found) throw new Error(`no session at ${place}`);
  return found.id;
}
