import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, type World } from './fixtures';
import { type Api, axeClean, launch } from './helpers';

// A customer user edits each of the six case data sections of a case (issue 15): the consents a
// change reveals, a '(for DBS)' name, an address gap filled through the fake postcode lookup, the
// locked idsp address; at desktop and phone width, light and dark. On a world of its own
// (e2e/fixtures.ts): its case has the demo case's case data (world.caseData: an address history
// with a gap and an idsp address, a passport, a licence), and operations edit another case of it.

const shots = '/tmp/shots/case-data';
mkdirSync(shots, { recursive: true });
const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: join(shots, `${name}.png`), fullPage: false });

const CHECKS = ['basic-details', 'address-history', 'dbs-basic'];
let browser: Browser;
let world: World;
let admin: Api;
let api: Api['api'];
let caseId = 0;

interface Gap {
  from_date: string;
  to_date: string;
}
interface AddressList {
  results: Array<{ id: number; source: string; line_one: string }>;
  gaps: Gap[];
}

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    ops: true,
    withCase: CHECKS,
    withCaseData: true,
    subjects: [
      { key: 'subject', firstName: 'Sam', lastName: 'World' },
      { key: 'other', firstName: 'Alex', lastName: 'World' },
    ],
  });
  caseId = world.caseId;
  admin = await world.api('admin');
  api = admin.api;
  // The case's address history has a gap and an idsp-sourced address.
  const list = (await (await api.get(`/api/case-addresses/?case=${caseId}`)).json()) as AddressList;
  expect(list.gaps.length, 'an address gap').toBeGreaterThan(0);
  expect(
    list.results.some((a) => a.source === 'idsp'),
    'an idsp address',
  ).toBe(true);
});
afterAll(async () => {
  await setDark(false);
  await world?.dispose();
  await browser?.close();
});

const setDark = async (dark: boolean) => {
  if (!api) return;
  const res = await api.put('/api/user/', {
    data: { dark_mode: dark },
    headers: { 'X-CSRFToken': admin.csrf() },
  });
  expect(res.status()).toBe(200);
};

const region = (p: Page, name: string) => p.getByRole('region', { name, exact: true });

/** Ticks the two consents the change revealed ('Please confirm' until then) and saves. */
async function confirmAndSave(scope: Locator) {
  const consents = scope.getByTestId('consents');
  await consents.waitFor();
  expect(await consents.getByText('Please confirm').count()).toBe(2);
  const save = scope.getByRole('button', { name: 'Save' });
  expect(await save.isDisabled()).toBe(true);
  for (const box of await consents.getByRole('checkbox').all()) await box.check();
  await expect.poll(() => save.isEnabled()).toBe(true);
  await save.click();
}

async function toast(p: Page, text: string) {
  await p.getByText(text, { exact: true }).first().waitFor();
}

/** Picks 'YYYY-MM-DD' in the date selector labelled `label` within `scope`. */
async function pickDate(scope: Locator, label: string, iso: string) {
  const [y, m, d] = iso.split('-');
  await scope.getByLabel(`${label}: year`).selectOption(String(y));
  await scope.getByLabel(`${label}: month`).selectOption(String(Number(m)));
  await scope.getByLabel(`${label}: day`).selectOption(String(Number(d)));
}

async function openCase(p: Page) {
  await p.goto(`/cases/${caseId}`);
  await region(p, 'Basic Details')
    .getByLabel(/^Forename/)
    .first()
    .waitFor();
}

describe('case data editing screen, as a customer user', () => {
  let page: Page;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const opened = await world.signedIn(browser, 'admin');
    page = opened.page;
    close = () => opened.context.close();
    await openCase(page);
  });
  afterAll(async () => close?.());

  it('shows the six sections, each loaded on its own', async () => {
    for (const name of [
      'Basic Details',
      'Birth Details',
      'Other Names',
      'Address History',
      'Passport',
      'Driving Licence',
    ]) {
      await region(page, name).waitFor();
    }
    expect(await page.getByTestId('section-error').count()).toBe(0);
    expect(await axeClean(page)).toEqual([]);
  });

  it('edits the basic details: the consents appear on a change, then it saves', async () => {
    const s = region(page, 'Basic Details');
    expect(await s.getByTestId('consents').count()).toBe(0);
    await s.getByLabel(/^Phone number/).fill('020 7946 0321');
    await confirmAndSave(s);
    await toast(page, 'Successfully updated basic details');
    await expect.poll(() => s.getByTestId('consents').count()).toBe(0);
    const saved = await (await api.get(`/api/case-basic-details/${caseId}/`)).json();
    // Stored as E.164 (issue 14).
    expect(saved.phone_number).toBe('+442079460321');
  });

  it('edits the birth details', async () => {
    const s = region(page, 'Birth Details');
    await s.getByLabel(/^Country of birth/).selectOption('GBR');
    await s.getByLabel(/^Town of birth/).fill('Harrogate');
    await confirmAndSave(s);
    await toast(page, 'Successfully updated birth details');
    const saved = await (await api.get(`/api/case-birth-details/${caseId}/`)).json();
    expect(saved.town).toBe('Harrogate');
  });

  it("adds another name that needs a '(for DBS)' value", async () => {
    const s = region(page, 'Other Names');
    await s.getByRole('button', { name: 'Add other name' }).click();
    const form = s.getByRole('form', { name: 'Add other name' });
    await form
      .getByLabel(/^Forename/)
      .first()
      .fill('Zoë');
    // The name fails the DBS character rules: a warning, and the alternative is asked for.
    await form.getByTestId('dbs-warning').first().waitFor();
    await form.getByLabel(/Forename \(for DBS\)/).fill('Zoe');
    await form
      .getByLabel(/^Surname/)
      .first()
      .fill('Hartley');
    await pickDate(form, 'From', '2008-03-01');
    await pickDate(form, 'To', '2012-09-30');
    await screenshot(page, 'case-data-other-name-dbs-desktop');
    await confirmAndSave(form);
    await toast(page, 'Successfully added other name');
    await s.getByText('Zoë Hartley').waitFor();
    await s.getByText('1st Mar 2008 to 30th Sep 2012').waitFor();
    const names = await (await api.get(`/api/case-other-names/?case=${caseId}`)).json();
    expect(names.results).toContainEqual(
      expect.objectContaining({ forename: 'Zoë', forename_dbs: 'Zoe', surname: 'Hartley' }),
    );
  });

  it('shows the idsp address locked, and fills a gap through the fake postcode lookup', async () => {
    const s = region(page, 'Address History');
    const locked = s.getByTestId('address-row').filter({ hasText: 'Locked' });
    expect(await locked.count()).toBeGreaterThan(0);
    expect(await locked.first().getByRole('button').count()).toBe(0);
    await locked
      .first()
      .getByText(/identity check/)
      .waitFor();

    const before = (await (
      await api.get(`/api/case-addresses/?case=${caseId}`)
    ).json()) as AddressList;
    const gap = before.gaps[0] as Gap;
    const gapRow = s.getByTestId('address-gap').first();
    await gapRow.getByText('Missing address information').waitFor();
    await gapRow.getByRole('button', { name: 'Fill this gap' }).click();
    const form = s.getByRole('form', { name: 'Fill the gap' });
    const postcode = form.getByLabel('Find an address by postcode');
    await postcode.fill('LS1');
    await form.getByRole('button', { name: 'Find address' }).click();
    await form.getByText('Min 5 characters').waitFor();
    await postcode.fill('LS1 4AP');
    await form.getByRole('button', { name: 'Find address' }).click();
    const choose = form.getByLabel('Choose the address');
    await choose.waitFor();
    const options = await choose.locator('option').all();
    expect(options.length).toBeGreaterThan(1);
    await choose.selectOption({ index: 1 });
    await expect.poll(() => form.getByLabel(/^Address line 1/).inputValue()).not.toBe('');
    expect(await form.getByLabel(/^Town/).first().inputValue()).not.toBe('');
    expect(
      await form
        .getByLabel(/^Postcode/)
        .first()
        .inputValue(),
    ).toBe('LS1 4AP');
    await screenshot(page, 'case-data-gap-lookup-desktop');
    expect(await axeClean(page)).toEqual([]);
    await confirmAndSave(form);
    await toast(page, 'Successfully added address');
    await expect
      .poll(async () => {
        const after = (await (
          await api.get(`/api/case-addresses/?case=${caseId}`)
        ).json()) as AddressList;
        return after.gaps.some((g) => g.from_date === gap.from_date && g.to_date === gap.to_date);
      })
      .toBe(false);
    const after = (await (
      await api.get(`/api/case-addresses/?case=${caseId}`)
    ).json()) as AddressList;
    expect(after.results.length).toBe(before.results.length + 1);
  }, 300_000); // the lookup, an axe scan and a save: past a minute on a loaded 2-core machine

  it('edits the passport (or adds it when the case has none)', async () => {
    const s = region(page, 'Passport');
    const isNew = (await s.getByText('Not added yet').count()) > 0;
    await s.getByLabel(/^Passport number/).fill('AB987654');
    if (isNew) {
      await s.getByLabel(/^Issuing country/).selectOption('GBR');
      const next = new Date();
      await pickDate(s, 'Expiry date', `${next.getUTCFullYear() + 5}-06-15`);
    }
    await confirmAndSave(s);
    await toast(page, 'Successfully updated passport');
    const saved = await (await api.get(`/api/case-passports/${caseId}/`)).json();
    expect(saved.number).toBe('AB987654');
  });

  it('edits the driving licence', async () => {
    const s = region(page, 'Driving Licence');
    await s.getByLabel('Licence number').waitFor();
    const number = await s.getByLabel(/^Licence number/).inputValue();
    expect(number, "the case's licence").not.toBe('');
    await pickDate(s, 'Issue date', '2019-04-02');
    await confirmAndSave(s);
    await toast(page, 'Successfully updated driving licence');
    const saved = await (await api.get(`/api/case-driving-licences/${caseId}/`)).json();
    expect(saved.issue_date).toBe('2019-04-02');
    expect(await axeClean(page)).toEqual([]);
  });
});

describe('case data for operations (basic and e-bulk checks)', () => {
  it('edits the case data of an outstanding DBS check from the ops activity view', async () => {
    // Another case of the world, with its case data, whose DBS check waits for operations (as
    // the demo's waits: the seed leaves it at ca-awaiting-ops).
    const other = await world.openCase('World checks', 'other');
    await world.caseData(other, 'male');
    const ops = await world.api('ops');
    const detail = await (await api.get(`/api/cases/${other}/`)).json();
    const dbs = (detail.case_activities as { id: number; activity_type: string }[]).find(
      (a) => a.activity_type === 'dbs-basic',
    );
    expect(dbs, JSON.stringify(detail.case_activities)).toBeDefined();
    const moved = await ops.api.patch(`/api/ops/case-activities/${dbs?.id}/`, {
      data: { state: 'ca-awaiting-ops' },
      headers: { 'X-CSRFToken': ops.csrf() },
    });
    expect(moved.status(), await moved.text()).toBe(200);

    const list = await (
      await ops.api.get(
        `/api/ops/outstanding-activities/?page_size=100&customer=${world.customer.id}`,
      )
    ).json();
    const activity = (
      list.results as Array<{ id: number; activity_type: string; case: { id: number } }>
    ).find((a) => ['dbs-basic', 'dbs-standard', 'dbs-enhanced'].includes(a.activity_type));
    expect(activity, 'an outstanding DBS check of the world').toBeDefined();
    if (!activity) return;
    expect(activity.id).toBe(dbs?.id);
    const { context, page } = await world.signedIn(browser, 'ops');
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/') && r.url().includes('case-')) calls.push(r.url());
    });
    await page.goto(`/ops/outstanding-activities/${activity.id}`);
    const s = region(page, 'Birth Details');
    await s.getByLabel(/^Town of birth/).waitFor();
    await s.getByLabel(/^Country of birth/).selectOption('GBR');
    await s.getByLabel(/^Town of birth/).fill('Whitby');
    await confirmAndSave(s);
    await toast(page, 'Successfully updated birth details');
    // Operations call the ops API, for any customer, without acting for it.
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((u) => new URL(u).pathname.startsWith('/api/ops/'))).toBe(true);
    const saved = await (
      await ops.api.get(`/api/ops/case-birth-details/${activity.case.id}/`)
    ).json();
    expect(saved.town).toBe('Whitby');
    expect(await axeClean(page)).toEqual([]);
    await screenshot(page, 'case-data-ops-desktop');
    await context.close();
  });
});

describe('case data screen at desktop and phone width, light and dark', () => {
  for (const dark of [false, true]) {
    for (const [label, viewport] of [
      ['desktop', { width: 1280, height: 900 }],
      ['phone', { width: 360, height: 780 }],
    ] as const) {
      it(`${label}, ${dark ? 'dark' : 'light'}`, async () => {
        await setDark(dark);
        const { context, page } = await world.signedIn(browser, 'admin', { viewport });
        await openCase(page);
        await expect
          .poll(() =>
            page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme')),
          )
          .toBe(dark ? 'dark' : 'light');
        const mode = dark ? 'dark' : 'light';
        // No horizontal scrolling at phone width.
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
        const basic = region(page, 'Basic Details');
        await basic.scrollIntoViewIfNeeded();
        await basic
          .getByLabel(/^Surname/)
          .first()
          .fill('Ó Briain');
        await basic.getByLabel(/Surname \(for DBS\)/).waitFor();
        await basic.getByTestId('consents').waitFor();
        await basic
          .getByLabel(/^Surname/)
          .first()
          .scrollIntoViewIfNeeded();
        await screenshot(page, `case-data-basic-${label}-${mode}`);
        expect(await axeClean(page)).toEqual([]);
        const addresses = region(page, 'Address History');
        await addresses.scrollIntoViewIfNeeded();
        await screenshot(page, `case-data-addresses-${label}-${mode}`);
        await region(page, 'Driving Licence').scrollIntoViewIfNeeded();
        await screenshot(page, `case-data-licence-${label}-${mode}`);
        await context.close();
      });
    }
  }
});
