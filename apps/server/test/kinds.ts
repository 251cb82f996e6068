import {
  type CaseActivityState,
  type CasePortalOut,
  missingConsents,
  type ProcessingData,
  type SubjectConsentOut,
} from '@kestrel/domain';
import { asc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Tx } from '../src/db/connection.js';
import type { SubjectUserInput } from '../src/db/factories.js';
import { jobActor } from '../src/jobs/service-job.js';
import { caseActivities } from '../src/modules/activities/activities.table.js';
import { type ChecksConfig, readChecksConfig } from '../src/modules/checks/config.js';
import { activitiesSubmitted } from '../src/modules/checks/hooks.js';
import { createCheckEngine, useCheckEngine } from '../src/modules/checks/providers.js';
import type { ManualClock } from '../src/platform/clock.js';
import { runInTenant } from '../src/platform/service-context.js';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  type ProcessInput,
  type TestApp,
} from './helpers.js';

/*
 * The preamble the kinds' integration tests share (apps/server/src/modules/checks/**): one app
 * per file with a customer Acme (its admin@acme.test and viewer@acme.test) and operations
 * (ops@k.test), the check engine on a providers' clock of its own if asked, subjects with an open
 * case asking for a kind, the subject's portal submission, the activity as the API shows it.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The consents the subject's case still asks for (`missingConsents`), given as the portal's
 * sections give them (POST /api/s/consents/, 201 each): what Review & Submit needs.
 */
export async function giveConsents(app: TestApp['app'], subject: Client, caseId: number) {
  const get = (url: string) => app.inject({ method: 'GET', url, headers: subject.headers });
  const portal = await get(`/api/s/case-portal/${caseId}/`);
  expect(portal.statusCode, portal.body).toBe(200);
  const held = (await get('/api/s/consents/')).json() as { results: SubjectConsentOut[] };
  const { case_activities } = (portal.json() as CasePortalOut).portal;
  const ofCase = held.results.filter((c) => c.case === caseId);
  for (const { activity, kind } of missingConsents(case_activities, ofCase)) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/s/consents/',
      headers: subject.headers,
      payload: { case: caseId, case_activity: activity.id, kind },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
}

export interface KindsWorldOptions {
  /** buildTestApp's options (clock, config, …). */
  app?: Parameters<typeof buildTestApp>[0];
  /** Customers besides Acme, by name (their ids: `world.customer(name)`). */
  customers?: string[];
  /** Create ops@k.test (default true). */
  ops?: boolean;
  /** Log in viewer@acme.test too (default false). */
  viewer?: boolean;
  /**
   * The check engine made again on this clock for the providers (the simulators' days move
   * while the app's clock, and so the sessions, stay), with `engine`'s settings over the
   * environment's.
   */
  providerClock?: ManualClock;
  engine?: Partial<ChecksConfig>;
}

export interface ActivityOut<R> {
  state: CaseActivityState;
  result_data: R;
  processing_data: ProcessingData;
}

export interface SubjectCaseInput {
  /** The process's requirements (the kinds the case asks for). */
  requirements: NonNullable<ProcessInput['requirements']>;
  customerId?: number;
  /** The subject user (email made unique per file unless given). */
  subject?: SubjectUserInput;
  /** The activities' states (createCase's: the last one for the rest; awaiting the subject). */
  activityStates?: CaseActivityState[];
  /** Which of the case's activities (by position) is `activityId` (default the first). */
  activityAt?: number;
  /** More fixtures in the same transaction (case data the portal would have saved). */
  prepare?: (tx: Tx, key: { customerId: number; caseId: number }) => Promise<void>;
}

export interface SubjectCase {
  caseId: number;
  activityId: number;
  customerId: number;
  email: string;
  /** The subject, logged in. */
  subject: Client;
}

export interface KindsWorld {
  readonly t: TestApp;
  readonly acme: number;
  readonly admin: Client;
  readonly ops: Client;
  readonly viewer: Client;
  /** The id of a customer made by `customers`. */
  customer(name: string): number;
  /** One API call as `c` (its cookie and CSRF header). */
  call(c: Client, method: Method, url: string, payload?: object): Promise<LightMyRequestResponse>;
  /** A subject with a login and an open case asking for `requirements`. */
  subjectCase(input: SubjectCaseInput): Promise<SubjectCase>;
  /**
   * The subject's portal: each section completed in turn, the consents the case asks for given
   * (`giveConsents`), then Review & Submit (200 each);
   * the jobs it starts run before it returns. Answers the submission's response.
   */
  submitPortal(
    subject: Client,
    caseId: number,
    sections: readonly string[],
  ): Promise<LightMyRequestResponse>;
  /**
   * The subject's submission as the portal makes it in its transaction (activitiesSubmitted, as
   * the customer's job actor: Acme's unless told), without the portal's sections; the jobs it
   * starts run before it returns.
   */
  submitActivities(k: { caseId: number; activityId: number }, customerId?: number): Promise<void>;
  /**
   * The activity as the API shows it (GET {prefix}/case-activities/{id}/ as `as`; by default
   * the world's admin, signed in once: a test that moves the clock days signs in again and
   * passes its own).
   */
  activity<R>(id: number, as?: Client, prefix?: string): Promise<ActivityOut<R>>;
}

/**
 * The kinds' test world: call once at a test file's top level; it builds the app in a
 * beforeAll and closes it in an afterAll. Its fields are there once the beforeAll has run.
 */
export function kindsWorld(opts: KindsWorldOptions = {}): KindsWorld {
  let t: TestApp | undefined;
  const ids = new Map<string, number>();
  const clients = new Map<'admin' | 'ops' | 'viewer', Client>();
  let people = 0;

  const app = (): TestApp => {
    if (!t) throw new Error('the kinds world is built in beforeAll');
    return t;
  };
  const client = (name: 'admin' | 'ops' | 'viewer'): Client => {
    const c = clients.get(name);
    if (!c) throw new Error(`no ${name} in this kinds world`);
    return c;
  };
  const customer = (name: string): number => {
    const id = ids.get(name);
    if (id === undefined) throw new Error(`no customer ${name} in this kinds world`);
    return id;
  };

  beforeAll(async () => {
    const built = await buildTestApp(opts.app);
    t = built;
    await built.owner(async (tx) => {
      for (const name of ['Acme', ...(opts.customers ?? [])]) {
        ids.set(name, (await createCustomer(tx, { name })).id);
      }
      await createAdminAndViewer(tx, customer('Acme'));
      if (opts.ops !== false) {
        await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
      }
    });
    if (opts.providerClock || opts.engine) {
      useCheckEngine(
        built.app.deps,
        createCheckEngine(
          built.app.deps,
          { ...readChecksConfig({}, built.app.deps.secrets), ...opts.engine },
          opts.providerClock,
        ),
      );
    }
    clients.set('admin', await login(built.app, 'admin@acme.test'));
    if (opts.viewer) clients.set('viewer', await login(built.app, 'viewer@acme.test'));
    if (opts.ops !== false) clients.set('ops', await login(built.app, 'ops@k.test'));
  });
  afterAll(async () => {
    await t?.close();
  });

  const call: KindsWorld['call'] = (c, method, url, payload) =>
    app().app.inject({ method, url, headers: c.headers, ...(payload ? { payload } : {}) });

  return {
    get t() {
      return app();
    },
    get acme() {
      return customer('Acme');
    },
    get admin() {
      return client('admin');
    },
    get ops() {
      return client('ops');
    },
    get viewer() {
      return client('viewer');
    },
    customer,
    call,
    async subjectCase(input) {
      const customerId = input.customerId ?? customer('Acme');
      const email = input.subject?.email ?? `kind-subject-${++people}@example.test`;
      const k = await app().owner(async (tx) => {
        const subject = await createSubjectUser(tx, { ...input.subject, customerId, email });
        const p = await createProcess(tx, { customerId, requirements: input.requirements });
        const c = await createCase(tx, {
          customerId,
          processId: p.id,
          subjectId: subject.id,
          ...(input.activityStates ? { activityStates: input.activityStates } : {}),
        });
        await input.prepare?.(tx, { customerId, caseId: c.id });
        const acts = await tx
          .select({ id: caseActivities.id })
          .from(caseActivities)
          .where(eq(caseActivities.caseId, c.id))
          .orderBy(asc(caseActivities.position));
        const a = acts[input.activityAt ?? 0];
        if (!a) throw new Error('no activity');
        return { caseId: c.id, activityId: a.id };
      });
      return { ...k, customerId, email, subject: await login(app().app, email) };
    },
    async submitPortal(subject, caseId, sections) {
      for (const section of sections) {
        const res = await call(subject, 'PATCH', `/api/s/case-portal/${caseId}/`, {
          portal_last_completed_section: section,
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      // each section's declaration, as the portal gives it
      await giveConsents(app().app, subject, caseId);
      const submitted = await call(subject, 'POST', `/api/s/case-portal/${caseId}/submit/`);
      expect(submitted.statusCode, submitted.body).toBe(200);
      await app().settle();
      return submitted;
    },
    async submitActivities(k, customerId) {
      await runInTenant(app().app.deps, jobActor(customerId ?? customer('Acme')), (ctx) =>
        activitiesSubmitted(ctx, k.caseId, [k.activityId]),
      );
      await app().settle();
    },
    async activity<R>(id: number, as?: Client, prefix = '/api') {
      const res = await call(as ?? client('admin'), 'GET', `${prefix}/case-activities/${id}/`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as ActivityOut<R>;
    },
  };
}
