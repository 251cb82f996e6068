import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorld, WORLD_PASSWORD, type World } from './fixtures';
import { launch, loginUi, newPage, place, totp } from './helpers';

// Writes (a subject's date of birth, an administrator's two-factor): on a world of its own
// (e2e/fixtures.ts), never the demo users other files sign in as.
let browser: Browser;
let world: World;
beforeAll(async () => {
  browser = await launch();
  world = await newWorld({ subjects: [{ key: 'subject', firstName: 'Sam', lastName: 'World' }] });
});
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

const options = (page: import('playwright-core').Page, testId: string) =>
  page
    .getByTestId(testId)
    .locator('option')
    .evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value).filter(Boolean));

describe('subject profile completion and the date selector', () => {
  it('sends a subject without a date of birth to complete-profile, then on to next', async () => {
    // Arrange: the world's subject loses its date of birth.
    const subject = await world.api('subject');
    const cleared = await subject.api.put('/api/user/', {
      data: { dob: null },
      headers: { 'X-CSRFToken': subject.csrf() },
    });
    expect(cleared.status(), await cleared.text()).toBe(200);

    const { context, page } = await newPage(browser);
    await loginUi(
      page,
      world.username('subject'),
      WORLD_PASSWORD,
      '/login?next=%2Fs%2Fcases&subject=y',
    );
    await page.waitForURL('**/s/complete-profile?**');
    expect(place(page)).toBe('/s/complete-profile?next=%2Fs%2Fcases');

    // Required: submitting empty says so.
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Required').first().waitFor();

    // The day list follows the month (and leap years).
    await page.getByTestId('date-year').selectOption('2000');
    await page.getByTestId('date-month').selectOption('2');
    expect(await options(page, 'date-day')).toHaveLength(29);
    await page.getByTestId('date-year').selectOption('2001');
    expect(await options(page, 'date-day')).toHaveLength(28);
    await page.getByTestId('date-month').selectOption('4');
    expect(await options(page, 'date-day')).toHaveLength(30);
    // Up to today only: this year offers no month after the current one.
    const now = new Date();
    await page.getByTestId('date-year').selectOption(String(now.getUTCFullYear()));
    expect(
      (await options(page, 'date-month')).map(Number).every((m) => m <= now.getUTCMonth() + 1),
    ).toBe(true);

    await page.getByTestId('date-year').selectOption('1990');
    await page.getByTestId('date-month').selectOption('1');
    await page.getByTestId('date-day').selectOption('2');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/s/cases');
    const profile = await (await page.request.get('/api/user/')).json();
    expect(profile.dob).toBe('1990-01-02');
    await context.close();
  });
});

describe('two-factor authentication', () => {
  it('enrols with a QR code and a code check, then turns it off with a code', async () => {
    const { context, page } = await newPage(browser);
    await loginUi(page, world.username('admin'), WORLD_PASSWORD, '/login?next=%2Fprofile%2Ftotp');
    await page.waitForURL('**/profile/totp');
    await page.getByTestId('totp-qr').waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const src = await page.getByTestId('totp-qr').getAttribute('src');
    expect(src).toMatch(/^data:image\/png;base64,/);

    // A wrong code is refused with the server's message.
    await page.getByLabel('Authenticator code digit 1').click();
    await page.keyboard.type('000000');
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    await page.getByTestId('totp-error').waitFor();

    for (let i = 6; i >= 1; i--) await page.getByLabel(`Authenticator code digit ${i}`).fill('');
    await page.getByLabel('Authenticator code digit 1').click();
    await page.keyboard.type(totp(secret));
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    await page.waitForURL((url) => url.pathname === '/profile');
    expect((await (await page.request.get('/api/user/')).json()).totp_enabled).toBe(true);

    await page.goto('/profile/totp/remove');
    await page.getByLabel('Authenticator code digit 1').click();
    // A code cannot be used twice: use the next 30-second step's (within the server's tolerance).
    await page.keyboard.type(totp(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Turn off two-factor' }).click();
    await page.waitForURL((url) => url.pathname === '/profile');
    expect((await (await page.request.get('/api/user/')).json()).totp_enabled).toBe(false);
    await context.close();
  });
});
