import { formatDate } from '@kestrel/domain';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import { type Api, launch, PHONE, send } from './helpers';
import { activityOf as activityIn, look, submitDriver, text } from './special-answers';

// More special answers as the customer and the person see them (issue 27; point 2 of the spec),
// on a world of its own, driven through the simulators by the test data of their READMEs
// (apps/server/src/providers/*/README.md: the surname picks the answer):
// - licence check: 'Manual' → DQ3 (a manual DVLA response takes 14-28 working days);
// - online identity: 'Mismatch' → passed with a name mismatch (previous name on the documents),
//   through the portal and the identity simulator's own page;
// - trust-to-ride: operations book the person's place and record that they did not attend.
// Driver data's ENQ018 and ENQ037: kinds-special-answers.test.ts. Screenshots in /tmp/shots/d/ at
// 1280 and 360 px, axe clean.

const LICENCE = 'Licence check';
const IDENTITY = 'Identity and trust-to-ride';
let browser: Browser;
let world: World;
let ops: Api;
const cases: Record<string, number> = {};
const activityOf = (caseId: number, code: string) => activityIn(world, caseId, code);

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    ops: true,
    processes: [
      { name: LICENCE, requirements: ['licence-check'] },
      { name: IDENTITY, requirements: ['online-idv', 'trust-to-ride'] },
    ],
    subjects: [
      { key: 'manu', firstName: 'Manu', lastName: 'Manual' },
      { key: 'mo', firstName: 'Mo', lastName: 'Mismatch' },
    ],
  });
  ops = await world.api('ops');
  cases.manu = await world.openCase(LICENCE, 'manu');
  cases.mo = await world.openCase(IDENTITY, 'mo');
  for (const key of ['manu', 'mo']) await world.caseData(Number(cases[key]));
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

describe('the licence check: DQ3', () => {
  it('a manual DVLA response, for the customer and the person', async () => {
    await submitDriver(world, 'manu', Number(cases.manu), ['licence-check']);
    await expect
      .poll(async () => (await activityOf(Number(cases.manu), 'licence-check')).result_data, {
        timeout: 30_000,
      })
      .toMatchObject({ status: 'DQ3' });
    const staff = await world.signedIn(browser, 'admin');
    const person = (key: string) => world.signedIn(browser, key, { viewport: PHONE });
    // DQ3: a manual DVLA response takes 14-28 working days
    const manual =
      'The DVLA is responding to this check manually. A manual response takes 14-28 working days.';
    await look(staff.page, `/cases/${cases.manu}`, ['licence-check-message'], 'lc-dq3-customer');
    expect(await text(staff.page, 'licence-check-message')).toBe(manual);
    expect(await text(staff.page, 'licence-check-panel')).toContain('Manual DVLA response (DQ3)');
    const manu = await person('manu');
    await look(manu.page, `/s/cases/${cases.manu}`, ['licence-check-message'], 'lc-dq3-subject');
    expect(await text(manu.page, 'licence-check-message')).toBe(manual);
    await manu.context.close();
    await staff.context.close();
  }, 300_000);
});

describe('online identity and trust-to-ride: the special answers', () => {
  it('a name mismatch, and a session the person did not attend', async () => {
    const caseId = Number(cases.mo);
    // the person checks their identity on the simulator's page, from the portal, and submits
    const mo = await world.signedIn(browser, 'mo', { viewport: PHONE });
    const h1 = mo.page.getByRole('heading', { level: 1 });
    await mo.page.goto(`/s/case-portal/${caseId}`);
    await expect.poll(() => h1.textContent(), { timeout: 15_000 }).toBe('Welcome');
    await mo.page.getByRole('button', { name: 'Start' }).click();
    await mo.page.getByRole('button', { name: 'Start identity check' }).click();
    await mo.page.waitForURL((url) => url.pathname.startsWith('/idv-simulator/'));
    await mo.page.getByRole('button', { name: 'Verify my identity' }).click();
    await mo.page.waitForURL((url) => url.pathname.startsWith('/s/case-portal/'));
    await mo.page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => h1.textContent(), { timeout: 15_000 }).toBe('Check your answers');
    await mo.page.getByRole('button', { name: 'Submit' }).click();
    await expect
      .poll(() => h1.textContent(), { timeout: 15_000 })
      .toBe('Thank you, your answers have been submitted');
    await expect
      .poll(async () => (await activityOf(caseId, 'online-idv')).state, { timeout: 30_000 })
      .toBe('ca-pending-activity-decision');
    expect((await activityOf(caseId, 'online-idv')).result_data).toMatchObject({
      name_mismatch: { reason: 'document_previous_name' },
    });

    // operations book the person on a session, it takes place, they did not attend
    const soon = new Date(Date.now() + 2 * 60 * 60 * 1000);
    const session = {
      customer: world.customer.id,
      date: soon.toISOString().slice(0, 10),
      time: soon.toISOString().slice(11, 16),
      place: 'Leeds Civic Hall, Room 2',
      capacity: 4,
    };
    const made = await send(ops, 'post', '/api/ops/trust-to-ride/sessions/', session);
    const ride = await activityOf(caseId, 'trust-to-ride');
    const booked = await send(ops, 'post', '/api/ops/trust-to-ride/bookings/', {
      session: made.id,
      case_activity: ride.id,
    });
    const held = new Date(Date.now() - 60_000);
    await send(ops, 'put', `/api/ops/trust-to-ride/sessions/${made.id}/`, {
      ...session,
      date: held.toISOString().slice(0, 10),
      time: held.toISOString().slice(11, 16),
    });
    await send(ops, 'post', `/api/ops/trust-to-ride/bookings/${booked.id}/attendance/`, {
      attendance: 'did-not-attend',
    });
    const didNotAttend = `Did not attend the session on ${formatDate(held.toISOString().slice(0, 10))}`;

    const mismatch = 'Previous name on document(s)';
    const staff = await world.signedIn(browser, 'admin');
    await look(
      staff.page,
      `/cases/${caseId}`,
      ['online-idv-panel', 'trust-to-ride-outcome'],
      'idv-mismatch-t2r-dna-customer',
    );
    const idv = await text(staff.page, 'online-idv-panel');
    expect(idv).toContain(mismatch);
    expect(idv).toContain('Name mismatch reason');
    expect(await text(staff.page, 'trust-to-ride-outcome')).toBe(didNotAttend);
    await staff.context.close();

    await look(
      mo.page,
      `/s/cases/${caseId}`,
      ['online-idv-panel', 'trust-to-ride-outcome'],
      'idv-mismatch-t2r-dna-subject',
    );
    expect(await text(mo.page, 'online-idv-panel')).toContain(mismatch);
    expect(await text(mo.page, 'trust-to-ride-outcome')).toBe(didNotAttend);
    await mo.context.close();
  }, 300_000);
});
