import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERY_CHECK, newWorld, type World } from './fixtures';
import { axeClean, DESKTOP, launch, loginUi, newPage, PHONE, steady } from './helpers';

// Issue 16 "Done when", end to end in Chromium as a new subject would, at phone width: a customer
// opens a case for a new person with a process needing every check (the demo's 'Full check (every
// kind)'); the invitation is found in
// the outbox (as operations); the person claims the account, completes the profile, passes the
// simulated identity check (section -> simulator page -> back), fills every section (a gap in the
// address history through the postcode lookup, a forename needing its '(for DBS)' value), uploads
// a PDF and a photo, leaves halfway and resumes in a new browser (landing on the first unfinished
// section), reviews and submits; then the customer's admin sees the data and the documents on the
// case. Every portal screen: axe (no violation of any impact), 44 px touch targets at phone width,
// and screenshots at phone and desktop width in /tmp/shots/subject-journey/.
// Writes (a case, an invitation, a submission): on a world of its own (e2e/fixtures.ts) - its
// customer, administrator and operations user - never the demo users other files sign in as.

const stamp = Date.now();
const email = `sam.journey.${stamp}@example.test`;
const password = 'Kestrel-Sam-Journey-1';
const shots = '/tmp/shots/subject-journey';

let browser: Browser;
let world: World;
let caseId = 0;

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  browser = await launch();
  world = await newWorld({
    ops: true,
    processes: [{ name: 'Full check (every kind)', requirements: EVERY_CHECK }],
  });
});
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

const h1 = (page: Page) => page.getByRole('heading', { level: 1 });

/** Fills what a section still asks for: empty selects, required text, a radio per group, boxes. */
async function fillRest(page: Page) {
  const main = page.getByTestId('portal-section');
  // The section shows a placeholder while its own data loads: fill the form once it is there.
  await main.locator('.mantine-Skeleton-root').first().waitFor({ state: 'detached' });
  await page.waitForLoadState('networkidle');
  for (const sel of await main.locator('select:visible').all()) {
    if ((await sel.inputValue()) !== '') continue;
    const values = await sel
      .locator('option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    await sel.selectOption(values.includes('GBR') ? 'GBR' : (values.find((v) => v !== '') ?? ''));
  }
  for (const input of await main.locator('input[required]:visible:not([readonly])').all()) {
    const type = await input.getAttribute('type');
    if (type && type !== 'text') continue;
    if ((await input.inputValue()) === '') await input.fill('Leeds');
  }
  const radios = await main.locator('input[type="radio"]:visible').all();
  const groups = new Set<string>();
  for (const r of radios) {
    const name = (await r.getAttribute('name')) ?? '';
    if (groups.has(name)) continue;
    groups.add(name);
    await r.check();
  }
  for (const group of await main.getByRole('radiogroup').all()) {
    const options = group.getByRole('radio');
    if ((await group.locator('[aria-checked="true"], input:checked').count()) === 0)
      await options.first().click();
  }
  for (const box of await main.getByRole('checkbox', { name: /consent|declare|confirm/i }).all())
    await box.check();
}

const violations: Record<string, unknown> = {};
/** axe (no violation of any impact) and screenshots at phone and desktop width. */
async function look(page: Page, name: string) {
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await steady(page);
    const found = await axeClean(page);
    if (found.length) violations[`${name} ${size}`] = found;
    if (size === 'phone') {
      // Touch targets: every button of the page's main area at least 44 px high.
      const small = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('main button, main a.mantine-Button-root')]
          .filter((el) => el.offsetParent !== null)
          .map((el) => ({ text: el.textContent?.trim(), h: el.getBoundingClientRect().height }))
          .filter((el) => el.h > 0 && el.h < 44),
      );
      if (small.length) violations[`${name} touch targets`] = small;
    }
    await page.screenshot({ path: join(shots, `${name}-${size}.png`), fullPage: true });
  }
}

describe('a new subject, from the invitation to the submitted case', () => {
  let context: BrowserContext;
  let page: Page;
  it('a new subject claims the account from the invitation and completes every section at phone width', async () => {
    const admin = await world.api('admin');
    const ops = await world.api('ops');
    const processes = await (await admin.api.get('/api/processes/?page_size=100')).json();
    const every = (processes.results as Array<{ id: number; name: string }>).find(
      (p) => p.name === 'Full check (every kind)',
    );
    expect(every, JSON.stringify(processes)).toBeTruthy();
    const res = await admin.api.post('/api/cases/', {
      data: {
        process: every?.id,
        new_subject: { first_name: 'Zoë', middlename: '', last_name: 'Journey', email },
      },
      headers: { 'X-CSRFToken': admin.csrf() },
    });
    expect(res.status(), await res.text()).toBe(201);
    caseId = (await res.json()).id;
    const mails = async () =>
      (await ops.api.get('/api/ops/outbox/', { params: { to: email } })).json();
    await expect.poll(async () => (await mails()).count).toBeGreaterThan(0);
    const text: string = (await mails()).results[0]?.text ?? '';
    const link = /https?:\/\/\S+\/auth\/claim-account\?token=\S+/.exec(text)?.[0];
    expect(link, text).toBeTruthy();
    const { pathname, search } = new URL(link ?? '');
    ({ context, page } = await newPage(browser, { viewport: PHONE }));
    await page.goto(`${pathname}${search}`);
    await page.getByRole('heading', { name: 'Claim your account' }).waitFor();
    await page.locator('input[name="password"]').fill(password);
    await page.locator('input[name="confirm"]').fill(password);
    await page.getByRole('button', { name: 'Claim account' }).click();
    await page.waitForURL((url) => url.pathname === '/s/complete-profile');
    await page.getByLabel('Date of birth: year').selectOption('1990');
    await page.getByLabel('Date of birth: month').selectOption('3');
    await page.getByLabel('Date of birth: day').selectOption('14');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/s/dashboard');
    await page.goto(`/s/case-portal/${caseId}`);
    await expect.poll(() => h1(page).textContent(), { timeout: 15_000 }).toBe('Welcome');
    await look(page, 'welcome');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('button', { name: 'Start identity check' }).waitFor();
    await look(page, 'online-idv');
    await page.getByRole('button', { name: 'Start identity check' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/idv-simulator/'));
    await look(page, 'idv-simulator');
    await page.getByRole('button', { name: 'Verify my identity' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/s/case-portal/'));
    await page.getByText('Your identity has been verified').waitFor();
    await look(page, 'online-idv-passed');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => h1(page).textContent(), { timeout: 15_000 }).toBe('Basic details');
    await look(page, 'basic-details');
    const main = page.getByTestId('portal-section');
    await main.getByLabel('Gender').selectOption({ index: 2 });
    await main.getByLabel('Title').selectOption('Ms');
    await main.getByRole('textbox', { name: 'Forename (for DBS)' }).fill('Zoe');
    await main.getByRole('textbox', { name: /^Phone number/ }).fill('07911 123456');
    await main.getByRole('textbox', { name: /^National insurance number/ }).fill('AB 12 34 56 C');
    await main.getByLabel(/^Nationality/).selectOption('GBR');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => h1(page).textContent(), { timeout: 15_000 }).toBe('Address history');
    await look(page, 'address-history');
    await page.getByRole('button', { name: 'Add an address for this time' }).click();
    await page.getByRole('textbox', { name: 'Find an address by postcode' }).fill('LS1 4AP');
    await page.getByRole('button', { name: 'Find address' }).click();
    await look(page, 'address-lookup');
    await page.getByLabel('Choose the address').selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => h1(page).textContent(), { timeout: 15_000 }).toBe('Documents');
    await context.close();
    // A new browser: signs in and lands on the first unfinished section
    ({ context, page } = await newPage(browser, { viewport: PHONE }));
    await loginUi(page, email, password);
    await page.waitForURL((url) => url.pathname === '/s/dashboard');
    // the steps counted are the steps listed (Welcome lists 11 for a case needing every check)
    await expect
      .poll(() => page.getByTestId('subject-case').first().textContent())
      .toMatch(/\d+ of 11 steps done/);
    const next = page.getByTestId('subject-case').first().getByTestId('next-step');
    await next.click();
    await page.waitForURL((url) => url.pathname === `/s/case-portal/${caseId}/document-collection`);
    await expect.poll(() => h1(page).textContent(), { timeout: 15_000 }).toBe('Documents');
    await look(page, 'document-collection');
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const photo = await page.screenshot({
      type: 'jpeg',
      clip: { x: 0, y: 0, width: 200, height: 200 },
    });
    const forms = page.locator('form', {
      has: page.getByRole('button', { name: 'Upload document' }),
    });
    const upload = async (i: number, file: { name: string; mimeType: string; buffer: Buffer }) => {
      const form = i === 0 ? forms.first() : forms.last();
      await form.getByLabel('Document type').selectOption({ index: 1 });
      for (const box of await form.getByRole('checkbox').all()) await box.check();
      await form.locator('input[type="file"][multiple]').setInputFiles(file);
      await form.getByRole('button', { name: 'Upload document' }).click();
    };
    const uploaded = () => page.getByTestId('uploaded-document').count();
    await upload(0, { name: 'passport.pdf', mimeType: 'application/pdf', buffer: pdf });
    await expect.poll(uploaded, { timeout: 15_000 }).toBe(1);
    await upload(1, { name: 'passport-photo.jpg', mimeType: 'image/jpeg', buffer: photo });
    await expect.poll(uploaded, { timeout: 15_000 }).toBe(2);
    await look(page, 'document-collection-uploaded');
    // Continue counts the documents just uploaded (no reload in between).
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => h1(page).textContent(), { timeout: 15_000 }).not.toBe('Documents');
    const done: string[] = [];
    /** The criminal-record levels that asked for the place of birth and the identity route. */
    const asked: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      const title = (await h1(page).textContent()) ?? '';
      if (title === 'Check your answers') break;
      if (title.endsWith('DBS check')) {
        await page.getByText('Declaration and consent').first().waitFor();
        const birth = await page.getByLabel(/^Country of birth/).count();
        const route = await page.getByText('How your identity will be checked').count();
        if (birth > 0 || (route > 0 && (await page.getByRole('radio').count()) > 0))
          asked.push(title);
        else {
          // the answers given, with the way back to change them
          await page.getByTestId('dbs-shared-answers').getByText('Leeds').first().waitFor();
          await page
            .getByRole('link', { name: 'Change your answers in Enhanced DBS check' })
            .waitFor();
        }
      }
      if (title === 'DBS update service')
        await page.getByRole('textbox', { name: /^Certificate number/ }).fill('001234567890');
      if (title === 'Right to work')
        await page.getByRole('radio', { name: /I will show documents/ }).click();
      if (title === 'Driver data')
        await page
          .getByRole('textbox', { name: /^Driving licence number/ })
          .fill('JOURN953140Z99AB');
      await fillRest(page);
      await look(page, title.toLowerCase().replaceAll(' ', '-'));
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect
        .poll(() => h1(page).textContent(), { message: title, timeout: 15_000 })
        .not.toBe(title)
        .catch(async (e) => {
          await page.screenshot({ path: join(shots, 'failed.png'), fullPage: true });
          throw e;
        });
      done.push(title);
    }
    expect(done).toEqual([
      'Enhanced DBS check',
      'Standard DBS check',
      'Basic DBS check',
      'DBS update service',
      'Driver data',
      'Right to work',
    ]);
    // a case with all three levels asks the birth and identity questions once
    expect(asked).toEqual(['Enhanced DBS check']);
    // Review shows what was entered, formatted, section by section, each with its change link
    const review = page.getByTestId('review');
    const block = (name: string) =>
      review.getByTestId('review-block').filter({ has: page.getByRole('link', { name }) });
    for (const name of [
      'Change online identity check',
      'Change basic details',
      'Change address history',
      'Change documents',
      'Change enhanced DBS check',
      'Change standard DBS check',
      'Change basic DBS check',
      'Change DBS update service',
      'Change driver data',
      'Change right to work',
    ])
      await expect.poll(() => block(name).count(), { message: name }).toBe(1);
    expect(await review.getByText('Completed.').count()).toBe(0);
    await block('Change basic details').getByText('British').waitFor();
    await block('Change basic details').getByText('07911 123456').waitFor();
    expect(await review.getByText('+447911123456').count()).toBe(0);
    const documents = block('Change documents');
    await documents.getByText('Identity documents').waitFor();
    await documents.getByText('Right to work documents').waitFor();
    await expect.poll(() => documents.getByRole('listitem').count()).toBe(2);
    await block('Change enhanced DBS check').getByText('Leeds').first().waitFor();
    await block('Change DBS update service').getByText('001234567890').waitFor();
    await block('Change driver data').getByText('JOURN953140Z99AB').waitFor();
    await block('Change right to work')
      .getByText(/I will show documents/)
      .waitFor();
    await look(page, 'review');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect
      .poll(() => h1(page).textContent(), { timeout: 15_000 })
      .toBe('Thank you, your answers have been submitted');
    await look(page, 'done');
    const caseLink = page.getByRole('link', { name: 'Go to your case page' });
    expect(await caseLink.getAttribute('href')).toBe(`/s/cases/${caseId}`);
    await context.close();
    expect(violations).toEqual({});
  }, 400_000);

  it('the customer sees the data and the documents on the case page', async () => {
    const session = await world.signedIn(browser, 'admin');
    const p = session.page;
    await p.goto(`/cases/${caseId}`);
    await p.getByText('Journey').first().waitFor();
    await p.waitForTimeout(1500);
    await p.screenshot({ path: join(shots, 'customer-case-desktop.png'), fullPage: true });
    const text = (await p.locator('main').textContent()) ?? '';
    expect(text).toContain('Zoë');
    expect(text).toContain('10 Verified Street'); // from the identity check
    expect(text).toContain('LS1 4AP'); // the gap, filled through the lookup
    // the forename's '(for DBS)' value, in the case data form
    expect(
      await p
        .getByRole('textbox', { name: /^Forename \(for DBS\)/ })
        .first()
        .inputValue(),
    ).toBe('Zoe');
    // the header's date of birth is the one the subject entered (and the check confirmed)
    const dob = p.getByText('Date of birth', { exact: true }).first().locator('xpath=..');
    expect(await dob.textContent()).toMatch(
      /Date of birth\s*\d{1,2}(st|nd|rd|th) [A-Z][a-z]{2} \d{4}/,
    );
    expect(text).toContain('Passport');
    expect(text).toContain('British passport (current or expired)');
    await session.context.close();
  });
});
