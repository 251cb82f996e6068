import { formatDate } from '@kestrel/domain';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import { launch, PHONE } from './helpers';
import { activityOf, look, submitDriver, text, today } from './special-answers';

// Driver data's special answers as the customer and the person see them (issue 27; point 2 of
// the spec), on a world of its own, driven through the DVLA and licence-checking simulators by
// the test data of their READMEs (apps/server/src/providers/{dvla,davis}/README.md: the licence
// number's first five letters, from the surname):
// - 'Norecord' → ENQ018: no driver record (the activity waits for the customer's decision);
// - 'Suppressed' → ENQ037: suppressed, up to 28 days, with the mandate date (asked again: in
//   progress); its licence check is AwaitingCheck until the service's first poll.
// The licence check's DQ3, the name mismatch and trust-to-ride's 'did not attend':
// kinds-special-answers-more.test.ts; a failed knowledge test: knowledge-test-online.test.ts.
// Screenshots in /tmp/shots/d/ at 1280 and 360 px, axe clean.

const DRIVER = 'Driver checks';
let browser: Browser;
let world: World;
const cases: Record<string, number> = {};

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    processes: [{ name: DRIVER, requirements: ['driver-data', 'licence-check'] }],
    subjects: [
      { key: 'nora', firstName: 'Nora', lastName: 'Norecord' },
      { key: 'sue', firstName: 'Sue', lastName: 'Suppressed' },
    ],
  });
  for (const key of ['nora', 'sue']) {
    cases[key] = await world.openCase(DRIVER, key);
    await world.caseData(Number(cases[key]));
  }
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

describe('driver data: the special answers', () => {
  it('ENQ018 and ENQ037 with the mandate date (and AwaitingCheck), for the customer and the person', async () => {
    for (const key of ['nora', 'sue'])
      await submitDriver(world, key, Number(cases[key]), ['driver-data', 'licence-check']);
    const answered = (key: string, code: string) =>
      expect.poll(async () => (await activityOf(world, Number(cases[key]), code)).result_data, {
        message: `${key} ${code}`,
        timeout: 30_000,
      });
    await answered('nora', 'driver-data').toMatchObject({ enquiry_code: 'ENQ018' });
    await answered('sue', 'driver-data').toMatchObject({ enquiry_code: 'ENQ037' });
    await answered('sue', 'licence-check').toMatchObject({ status: 'AwaitingCheck' });
    // no record waits for the customer's decision; a suppressed one is asked again (in progress)
    expect((await activityOf(world, Number(cases.nora), 'driver-data')).state).toBe(
      'ca-pending-activity-decision',
    );
    expect((await activityOf(world, Number(cases.sue), 'driver-data')).state).toBe(
      'ca-in-progress',
    );
    const staff = await world.signedIn(browser, 'admin');
    const person = (key: string) => world.signedIn(browser, key, { viewport: PHONE });

    // ENQ018: no driver record
    const noRecord = 'No driver record was found for the details given.';
    await look(staff.page, `/cases/${cases.nora}`, ['driver-data-message'], 'dd-enq018-customer');
    expect(await text(staff.page, 'driver-data-message')).toBe(noRecord);
    expect(await text(staff.page, 'driver-data-panel')).toContain('ENQ018');
    const nora = await person('nora');
    await look(nora.page, `/s/cases/${cases.nora}`, ['driver-data-message'], 'dd-enq018-subject');
    expect(await text(nora.page, 'driver-data-message')).toBe(noRecord);
    await nora.context.close();

    // ENQ037: suppressed, up to 28 days, with the mandate date; the licence check awaits its check
    const suppressed = `This driver record is suppressed by the DVLA. It can take up to 28 days before the record is released. The mandate was signed on ${formatDate(today())}.`;
    const awaiting =
      'This licence is awaiting a check with the DVLA. The result will appear here once the check is complete.';
    await look(
      staff.page,
      `/cases/${cases.sue}`,
      ['driver-data-message', 'licence-check-message'],
      'dd-enq037-licence-awaiting-customer',
    );
    expect(await text(staff.page, 'driver-data-message')).toBe(suppressed);
    expect(await text(staff.page, 'driver-data-panel')).toContain('ENQ037');
    expect(await text(staff.page, 'licence-check-message')).toBe(awaiting);
    expect(await text(staff.page, 'licence-check-panel')).toContain('Awaiting check');
    await staff.context.close();
    const sue = await person('sue');
    await look(
      sue.page,
      `/s/cases/${cases.sue}`,
      ['driver-data-message', 'licence-check-message'],
      'dd-enq037-licence-awaiting-subject',
    );
    expect(await text(sue.page, 'driver-data-message')).toBe(suppressed);
    expect(await text(sue.page, 'licence-check-message')).toBe(awaiting);
    await sue.context.close();
  }, 300_000);
});
