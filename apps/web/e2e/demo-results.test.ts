import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type APIRequestContext, type Browser, request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveConsents } from './fixtures';
import { freePort, waitForHealth } from './global-setup';
import {
  type Api,
  DESKTOP,
  launch,
  lookAtWidths,
  PASSWORD,
  send,
  uploadIdentityPage,
} from './helpers';

// A newcomer's demo (issue 26): the product started as `npm start` starts it, on a fresh data
// directory with the default settings (no CHECKS_SIMULATOR_CONTROL, no speed configured: its
// own server, not the suite's), and an enhanced check's result seen in the browser within
// minutes. The case is set up through the API (the subject's data, verification and
// countersigning are not the point here); the result is read on the case page.
// It checks the demo itself (the README's demo users on a server of its own), so it keeps the
// demo users rather than a world of e2e/fixtures.ts.

const repoRoot = resolve(import.meta.dirname, '../../..');
const shots = join(import.meta.dirname, '..', 'test-results', 'demo-results');
mkdirSync(shots, { recursive: true });
const email = `demo.results.${Date.now()}@example.test`;
const subjectPassword = 'Kestrel-demo-results-2026';

let child: ChildProcess;
let dataDir = '';
let base = '';
let browser: Browser;
const clients: APIRequestContext[] = [];

async function apiAs(username: string, password = PASSWORD): Promise<Api> {
  const api = await request.newContext({ baseURL: base });
  clients.push(api);
  let csrf: string = (await (await api.get('/api/accounts/check-session/')).json()).csrf_token;
  if (username) {
    const res = await api.post('/api/accounts/login/', {
      data: { username, password },
      headers: { 'X-CSRFToken': csrf },
    });
    expect(res.status(), await res.text()).toBe(200);
    csrf = (await res.json()).csrf_token;
  }
  return { api, csrf: () => csrf };
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  dataDir = mkdtempSync(join(tmpdir(), 'kestrel-demo-'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  // as a newcomer has it: nothing about the simulators set
  delete env.CHECKS_SIMULATOR_CONTROL;
  delete env.CHECKS_SIMULATOR_DAY_SECONDS;
  delete env.DATABASE_URL;
  let output = '';
  child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: repoRoot,
    env: { ...env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  await waitForHealth(port, child, () => output);
  browser = await launch();
}, 300_000);

afterAll(async () => {
  for (const c of clients) await c.dispose();
  await browser?.close();
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('a fresh demo with the default settings', () => {
  it("shows an enhanced check's result in the browser within minutes", async () => {
    const admin = await apiAs('admin@acme.test');
    const ops = await apiAs('ops@kestrel.test');
    const processes = await (
      await admin.api.get('/api/processes/', { params: { page_size: 100 } })
    ).json();
    const care = (processes.results as { id: number; name: string }[]).find(
      (p) => p.name === 'Care worker onboarding',
    );
    const opened = await send(admin, 'post', '/api/cases/', {
      process: care?.id,
      new_subject: { first_name: 'Erin', middlename: '', last_name: 'Quick', email },
    });
    const caseId: number = opened.id;
    // the subject claims the account from the invitation in the outbox
    const mails = async () =>
      (await ops.api.get('/api/ops/outbox/', { params: { to: email } })).json();
    await expect.poll(async () => (await mails()).count, { timeout: 30_000 }).toBeGreaterThan(0);
    const token = /claim-account\?token=(\S+)/.exec((await mails()).results[0]?.text ?? '')?.[1];
    const anon = await apiAs('');
    await send(anon, 'post', '/api/user/claim-account/', {
      token: decodeURIComponent(token ?? ''),
      password: subjectPassword,
    });
    const subject = await apiAs(email, subjectPassword);
    await send(subject, 'put', '/api/user/', { dob: '1992-05-06', terms_agreed: true });
    const basic = {
      gender: 'female',
      title: 'Ms',
      forename: 'Erin',
      middlename: '',
      surname: 'Quick',
      dob: '1992-05-06',
      phone_number: '+447911123456',
      nationality: 'GBR',
    };
    const existing = await subject.api.get(`/api/s/case-basic-details/${caseId}/`);
    if (existing.status() === 200) {
      await send(subject, 'patch', `/api/s/case-basic-details/${caseId}/`, basic);
    } else {
      await send(subject, 'post', '/api/s/case-basic-details/', { case: caseId, ...basic });
    }
    for (const type of ['passport', 'bank-statement', 'utility-bill']) {
      await uploadIdentityPage(subject, '/api/s/', caseId, type);
    }
    await send(subject, 'patch', `/api/s/case-dbs-details/${caseId}/`, {
      idv_option: 'in-person',
      in_person_expected_date: new Date().toISOString().slice(0, 10),
    });
    // each check's declaration and consent, as the portal's sections give them
    await giveConsents(subject, caseId);
    const portal = await (await subject.api.get(`/api/s/case-portal/${caseId}/`)).json();
    const sections: string[] = portal.portal.sections;
    await send(subject, 'patch', `/api/s/case-portal/${caseId}/`, {
      portal_last_completed_section: sections[sections.indexOf('review') - 1],
    });
    await send(subject, 'post', `/api/s/case-portal/${caseId}/submit/`, {});
    await send(admin, 'post', `/api/case-dbs-details/${caseId}/verify/`, {});
    await send(admin, 'post', `/api/case-dbs-details/${caseId}/countersign/`, {});
    const sent = Date.now();

    // customer staff watch the case page as anyone would: reloading it now and then
    const context = await browser.newContext({
      baseURL: base,
      viewport: DESKTOP,
      locale: 'en-GB',
      timezoneId: 'UTC',
    });
    const page = await context.newPage();
    await page.goto('/login');
    await page.locator('input[name="username"]').fill('admin@acme.test');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/dashboard'));
    const panel = page.getByTestId('dbs-result-panel').first();
    let text = '';
    while (Date.now() - sent < 180_000) {
      await page.goto(`/cases/${caseId}`);
      await panel.waitFor();
      text = (await panel.textContent()) ?? '';
      if (text.includes('This is not a certificate issued by the DBS')) break;
      await page.waitForTimeout(5_000);
    }
    const seconds = Math.round((Date.now() - sent) / 1000);
    console.log(`demo-results: enhanced result shown ${seconds} s after countersigning`);
    expect(text).toContain('This is not a certificate issued by the DBS');
    expect(text).not.toContain('DBS Results not yet available');
    expect(text).not.toContain('This application is being processed by the DBS.');
    expect(text).toContain('Clear');
    // an enhanced check takes 7 simulated days: 70 s at the demo's 10 s a day, plus the polls
    expect(seconds).toBeLessThan(150);
    await lookAtWidths(page, shots, 'enhanced-result', { axe: false });
    await context.close();
  }, 300_000);
});
