import { type CasePortalOut, missingConsents, type SubjectConsentOut } from '@kestrel/domain';
import { type Browser, type BrowserContext, type Page, request } from 'playwright-core';
import { expect } from 'vitest';
import { type Api, baseUrl, DESKTOP, type Host, loginUi, newPage, send, totp } from './helpers';

// Worlds of their own for the browser tests (issue 26 point 7): a test file that writes makes
// its own customer with its own staff, operations user, processes, subjects and cases, and signs
// in as them, so files do not disturb each other on one worker's server and can run in any
// order. What no API makes yet (a customer, its staff and operations users with a known password
// and TOTP secret, a subject's login with a known password, the processes' checks) comes from the
// test-only route POST /api/test-fixtures/worlds/ (apps/server/src/modules/e2e-fixtures, mounted
// only with KESTREL_E2E_FIXTURES=1, which the global setup sets); cases go through the product
// API as customer staff open them.
//
//   const world = await newWorld({ withCase: ['basic-details', 'dbs-basic'] });
//   const admin = await world.api('admin');            // signed-in API client
//   const { page } = await world.signedIn(browser, 'subject');

/** Every login of a world has this password. */
export const WORLD_PASSWORD = 'kestrel-world-e2e-2026';
/** The TOTP secret of the world's staff made with `totp: true`. */
export const WORLD_TOTP_SECRET = 'KRSXG5CTMVRXEZLU';

export type Requirement =
  | string
  | { code: string; config?: Record<string, string | number | boolean | string[]> };

/** The checks of the demo's 'Care worker onboarding' process (apps/server cases.seed.ts). */
export const CARE_WORKER_CHECKS: Requirement[] = [
  'basic-details',
  'address-history',
  {
    code: 'dbs-enhanced',
    config: {
      purpose: 'employment',
      workforce: 'A',
      adult_barred_list: true,
      employment_sector: 'social-care',
    },
  },
  'rtw',
];

/**
 * The checks of the demo's 'Full check (every kind)' process (apps/server portal.seed.ts): every
 * kind of check the subject portal has a section for.
 */
export const EVERY_CHECK: Requirement[] = [
  { code: 'online-idv', config: { scheme_type: 'rtw-dbs' } },
  'basic-details',
  'address-history',
  {
    code: 'document-collection',
    config: { collectors: ['Proof of identity', 'Right to work'] },
  },
  {
    code: 'dbs-enhanced',
    config: {
      purpose: 'employment',
      workforce: 'A',
      adult_barred_list: true,
      employment_sector: 'social-care',
    },
  },
  { code: 'dbs-standard', config: { purpose: 'employment', employment_sector: 'health' } },
  { code: 'dbs-basic', config: { purpose: 'employment' } },
  'dbs-update',
  'driver-data',
  'rtw',
];

export interface WorldOptions {
  /** The brand: the host the world's clients and pages use (localhost or 127.0.0.1). */
  host?: Host;
  customerName?: string;
  demoMode?: boolean;
  entitlements?: ('regportals' | 'cycles' | 'subject_dedup')[];
  /** Customer staff by key; default one administrator, `admin`. */
  staff?: { key: string; role: 'admin' | 'viewer'; totp?: boolean; firstName?: string }[];
  /** An operations user of the world's own (`world.api('ops')`). */
  ops?: boolean;
  processes?: { name: string; requirements: Requirement[]; sendInvitation?: boolean }[];
  /** People with a claimed login (password WORLD_PASSWORD); default none. */
  subjects?: {
    key: string;
    firstName: string;
    lastName: string;
    dob?: string | null;
    /** A tag in the email address (`{key}+{tag}@...`), e.g. `kt-fail` for the test platform. */
    emailTag?: string;
  }[];
  /**
   * A process 'World checks' with these requirements and one case of it for the subject
   * `subject` (made when not listed), opened by `admin` through the API: `world.caseId`.
   */
  withCase?: Requirement[];
  /** The `withCase` case gets the demo case's case data (see `World.caseData`). */
  withCaseData?: boolean;
}

interface WorldOut {
  customer: { id: number; name: string };
  staff: Record<string, { id: number; username: string }>;
  ops: { id: number; username: string } | null;
  processes: Record<string, number>;
  subjects: Record<string, { id: number; user_id: number; email: string }>;
}

export interface World extends WorldOut {
  host: Host;
  /** The case of `withCase` (0 without it). */
  caseId: number;
  /** The login name of a staff key, 'ops', or a subject key. */
  username: (key: string) => string;
  /** An API client signed in as `key` (one login per key, reused). */
  api: (key: string) => Promise<Api>;
  /** A browser page signed in through the login form as `key` (one UI login per key). */
  signedIn: (
    browser: Browser,
    key: string,
    opts?: { viewport?: { width: number; height: number } },
  ) => Promise<{ context: BrowserContext; page: Page }>;
  /**
   * Gives a case of the world the case data the demo seed gives the demo subject's case (basic
   * and birth details, a previous name, an address history with a gap, a passport, a licence).
   */
  caseData: (caseId: number, gender?: 'female' | 'male') => Promise<void>;
  /**
   * The online test platform's simulator posts its signed callback of the activity's invitation
   * as it stands on the providers' clock to the product's callback route; the route's answer.
   */
  testPlatformCallback: (activityId: number) => Promise<{ status: number; body: unknown }>;
  /** Opens a case of `process` (name) through the API as `admin`; its id. */
  openCase: (process: string, subjectKey: string, by?: string) => Promise<number>;
  dispose: () => Promise<void>;
}

/** An API client signed in as `username` on `host` (a TOTP code when `secret` is given). */
export async function loginApi(
  host: Host,
  username: string,
  password: string,
  secret?: string,
): Promise<Api> {
  const api = await request.newContext({ baseURL: baseUrl(host) });
  const first = await (await api.get('/api/accounts/check-session/')).json();
  let csrf: string = first.csrf_token;
  const res = await api.post('/api/accounts/login/', {
    data: { username, password, ...(secret ? { totp: totp(secret) } : {}) },
    headers: { 'X-CSRFToken': csrf },
  });
  expect(res.status(), `login ${username}: ${await res.text()}`).toBe(200);
  csrf = (await res.json()).csrf_token;
  return { api, csrf: () => csrf };
}

/** A new world on this worker's server (see the top of this file). */
export async function newWorld(options: WorldOptions = {}): Promise<World> {
  const host = options.host ?? 'localhost';
  const subjects = [...(options.subjects ?? [])];
  if (options.withCase && !subjects.some((s) => s.key === 'subject')) {
    subjects.push({ key: 'subject', firstName: 'Sam', lastName: 'World' });
  }
  const processes = [...(options.processes ?? [])];
  if (options.withCase) processes.push({ name: 'World checks', requirements: options.withCase });
  const staff = options.staff ?? [{ key: 'admin', role: 'admin' }];

  const anon = await request.newContext({ baseURL: baseUrl(host) });
  const check = await (await anon.get('/api/accounts/check-session/')).json();
  const fixtures: Api = { api: anon, csrf: () => check.csrf_token };
  const made: WorldOut = await send(fixtures, 'post', '/api/test-fixtures/worlds/', {
    ...(options.customerName ? { customer_name: options.customerName } : {}),
    demo_mode: options.demoMode ?? false,
    entitlements: options.entitlements ?? [],
    password: WORLD_PASSWORD,
    totp_secret: WORLD_TOTP_SECRET,
    staff: staff.map((s) => ({
      key: s.key,
      role: s.role,
      totp: s.totp ?? false,
      ...(s.firstName ? { first_name: s.firstName } : {}),
    })),
    ops: options.ops ?? false,
    processes: processes.map((p) => ({
      name: p.name,
      requirements: p.requirements,
      send_invitation: p.sendInvitation ?? true,
    })),
    subjects: subjects.map((s) => ({
      key: s.key,
      first_name: s.firstName,
      last_name: s.lastName,
      ...(s.dob !== undefined ? { dob: s.dob } : {}),
      ...(s.emailTag ? { email_tag: s.emailTag } : {}),
    })),
  });

  const username = (key: string) => {
    const name =
      key === 'ops' ? made.ops?.username : (made.staff[key]?.username ?? made.subjects[key]?.email);
    if (!name) throw new Error(`no ${key} in this world`);
    return name;
  };
  const secretOf = (key: string) =>
    staff.find((s) => s.key === key)?.totp ? WORLD_TOTP_SECRET : undefined;
  const apis = new Map<string, Promise<Api>>();
  const api = (key: string) => {
    let a = apis.get(key);
    if (!a) {
      a = loginApi(host, username(key), WORLD_PASSWORD, secretOf(key));
      apis.set(key, a);
    }
    return a;
  };
  const states = new Map<string, Awaited<ReturnType<BrowserContext['storageState']>>>();
  const signedIn: World['signedIn'] = async (browser, key, { viewport = DESKTOP } = {}) => {
    const saved = states.get(key);
    if (saved) {
      const context = await browser.newContext({
        baseURL: baseUrl(host),
        viewport,
        storageState: saved,
        locale: 'en-GB',
        timezoneId: 'UTC',
      });
      return { context, page: await context.newPage() };
    }
    if (secretOf(key)) throw new Error('sign in a TOTP user through the form in the test');
    const session = await newPage(browser, { host, viewport });
    await loginUi(session.page, username(key), WORLD_PASSWORD);
    await session.page.waitForURL(
      (url) =>
        url.pathname.endsWith('/dashboard') ||
        url.pathname.startsWith('/s/') ||
        url.pathname === '/ops/outstanding-activities',
    );
    states.set(key, await session.context.storageState());
    return session;
  };
  const openCase: World['openCase'] = async (process, subjectKey, by = 'admin') => {
    const processId = made.processes[process];
    const subject = made.subjects[subjectKey];
    if (processId === undefined || !subject) throw new Error(`no ${process} or ${subjectKey}`);
    const opened = await send(await api(by), 'post', '/api/cases/', {
      process: processId,
      subject: subject.id,
    });
    return Number(opened.id);
  };
  const caseData: World['caseData'] = async (id, gender = 'female') => {
    await send(fixtures, 'post', '/api/test-fixtures/case-data/', {
      customer: made.customer.id,
      case: id,
      gender,
    });
  };
  const testPlatformCallback: World['testPlatformCallback'] = (activity) =>
    send(fixtures, 'post', '/api/test-fixtures/test-platform-callback/', { activity });
  const caseId = options.withCase ? await openCase('World checks', 'subject') : 0;
  if (caseId && options.withCaseData) await caseData(caseId);
  return {
    ...made,
    host,
    caseId,
    username,
    api,
    signedIn,
    openCase,
    caseData,
    testPlatformCallback,
    dispose: async () => {
      await anon.dispose();
      for (const a of apis.values()) await (await a).api.dispose();
      apis.clear();
    },
  };
}

/**
 * The consents the person's case still asks for (`missingConsents`: each DBS level's
 * declaration, the update service's status checks, the DVLA mandate), given through
 * POST /api/s/consents/ as the portal's sections give them: what Review & Submit needs.
 */
export async function giveConsents(subject: Api, caseId: number): Promise<void> {
  const portal = await subject.api.get(`/api/s/case-portal/${caseId}/`);
  expect(portal.status(), await portal.text()).toBe(200);
  const held = (await (await subject.api.get('/api/s/consents/')).json()) as {
    results: SubjectConsentOut[];
  };
  const { case_activities } = ((await portal.json()) as CasePortalOut).portal;
  const ofCase = held.results.filter((c) => c.case === caseId);
  for (const { activity, kind } of missingConsents(case_activities, ofCase)) {
    await send(subject, 'post', '/api/s/consents/', {
      case: caseId,
      case_activity: activity.id,
      kind,
    });
  }
}
