import { randomBytes } from 'node:crypto';
import { activityConfigSchema, ENTITLEMENTS } from '@kestrel/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SEED_ROLE } from '../../db/connection.js';
import {
  createCustomer,
  createProcess,
  createProductUser,
  createRole,
  createSubjectUser,
} from '../../db/factories.js';
import { jobActor } from '../../jobs/service-job.js';
import { actorOf } from '../../platform/access.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { NotFoundError } from '../../platform/errors.js';
import { parseBody } from '../../platform/query-params.js';
import { seal } from '../../platform/sealed-secrets.js';
import type { SecretSource } from '../../platform/server-secrets.js';
import { runInTenant } from '../../platform/service-context.js';
import { TestPlatformSimulator } from '../../providers/test-platform/simulator.js';
import { caseActivities } from '../activities/activities.table.js';
import {
  createAddressHistory,
  createCaseBasicDetails,
  createCaseBirthDetails,
  createCaseDrivingLicence,
  createCaseOtherName,
  createCasePassport,
} from '../case-data/case-data.factories.js';
import { cases } from '../cases/cases.table.js';
import { testPlatformProvider } from '../checks/knowledge-test/providers.js';
import { checkEngine, providerOf } from '../checks/providers.js';
import { DUE_BATCH, runDueBatch } from '../cycles/subscriptions.service.js';
import { runRemindersDue } from '../reminders/reminders-due-job.js';
import { subjects } from '../subjects/subjects.table.js';

/**
 * Test-only worlds for the browser tests (issue 26 point 7): with `KESTREL_E2E_FIXTURES=1` (set
 * only by apps/web/e2e/global-setup.ts, never by `npm start`), `POST /api/test-fixtures/worlds/`
 * makes a customer of its own with its staff (known password, TOTP secret when asked), an
 * operations user when asked, processes and subjects with a login, so that each e2e file works
 * on its own world instead of the shared demo users and files can run in any order on one
 * server. Only what no API makes yet is made here (a customer's staff with a known password,
 * operations staff, a subject's login with a known password; the ops console comes later):
 * cases, documents and invitations go through the product API (apps/web/e2e/fixtures.ts).
 * `POST /api/test-fixtures/case-data/ {customer, case}` gives a world's case the case data the demo
 * seed gives the demo subject's case (case-data.seed.ts: basic and birth details, a previous
 * name, an address history with a gap, a passport and a driving licence), with its factories.
 * The rows are made with the factories the demo seed uses (db/factories.ts), in the seed's
 * transaction (the owner as kestrel_seed), and each is audited with the request's actor.
 */
export const E2E_FIXTURES_ENV = 'KESTREL_E2E_FIXTURES';
export const WORLDS_PATH = '/api/test-fixtures/worlds/';
export const CASE_DATA_PATH = '/api/test-fixtures/case-data/';
export const TEST_PLATFORM_CALLBACK_PATH = '/api/test-fixtures/test-platform-callback/';
/**
 * `POST {customer, at}`: the subscriptions' due job run for one world's customer as if the clock
 * said `at` (the browser journey of a cycle's next period: the clock moves for that customer's
 * subscriptions only, never for the server's sessions or another file's world).
 */
export const SUBSCRIPTIONS_DUE_PATH = '/api/test-fixtures/subscriptions-due/';

/**
 * POST {customer, at}: runs the reminders-due job (issue 33) for that customer only, as if it
 * were `at` (a reminder's cadence or an invitation's expiry in a browser journey; the server's
 * sessions and the other worlds keep the real time).
 */
export const REMINDERS_DUE_PATH = '/api/test-fixtures/reminders-due/';

export function e2eFixturesEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[E2E_FIXTURES_ENV] === '1';
}

const name = z.string().trim().min(1).max(100);
const requirement = z.union([
  z.string().min(1).max(50),
  z.object({ code: z.string().min(1).max(50), config: activityConfigSchema.optional() }),
]);

export const worldIn = z.object({
  customer_name: name.optional(),
  demo_mode: z.boolean().default(false),
  entitlements: z.array(z.enum(ENTITLEMENTS)).max(ENTITLEMENTS.length).default([]),
  /** Every login of the world (staff, operations, subjects) gets this password. */
  password: z.string().min(12).max(100),
  /** Base32 TOTP secret of the staff marked `totp`. */
  totp_secret: z
    .string()
    .regex(/^[A-Z2-7]{16,64}$/)
    .optional(),
  staff: z
    .array(
      z.object({
        key: z.string().regex(/^[a-z][a-z0-9-]{0,30}$/),
        role: z.enum(['admin', 'viewer']),
        first_name: name.optional(),
        last_name: name.optional(),
        totp: z.boolean().default(false),
      }),
    )
    .max(10)
    .default([]),
  /** An operations user of the world's own (a product user of no customer, role ops). */
  ops: z.boolean().default(false),
  processes: z
    .array(
      z.object({
        name,
        description: z.string().max(500).default(''),
        send_invitation: z.boolean().default(true),
        requirements: z.array(requirement).max(30),
      }),
    )
    .max(10)
    .default([]),
  /** People of the customer with a claimed login (the demo's subject@example.test kind). */
  subjects: z
    .array(
      z.object({
        key: z.string().regex(/^[a-z][a-z0-9-]{0,30}$/),
        first_name: name,
        last_name: name,
        dob: z.iso.date().nullable().default('1990-04-12'),
        terms_agreed: z.boolean().default(true),
        /**
         * A tag in the email address (`{key}+{tag}@...`): the test platform's simulator chooses
         * its answer by one (`kt-fail`: a failed knowledge test; its README).
         */
        email_tag: z
          .string()
          .regex(/^[a-z0-9-]{1,30}$/)
          .optional(),
      }),
    )
    .max(10)
    .default([]),
});
export type WorldIn = z.infer<typeof worldIn>;

export interface WorldOut {
  customer: { id: number; name: string };
  staff: Record<string, { id: number; username: string }>;
  ops: { id: number; username: string } | null;
  processes: Record<string, number>;
  subjects: Record<string, { id: number; user_id: number; email: string }>;
}

/** Makes one world in the seed's transaction; each row audited as made by `actor`. */
export async function makeWorld(
  db: FastifyInstance['deps']['db'],
  secrets: SecretSource,
  actor: Actor,
  input: WorldIn,
): Promise<WorldOut> {
  const tag = randomBytes(5).toString('hex');
  const domain = `w${tag}.test`;
  const audit = (
    tx: Parameters<typeof recordAudit>[0],
    customerId: number | null,
    contentType: string,
    objectId: number,
    objectRepr: string,
  ) =>
    recordAudit(tx, actor, {
      verb: 'created',
      contentType,
      objectId,
      objectRepr,
      changes: { fixture: 'e2e world' },
      customerId,
    });
  return db.ownerTransaction(async (tx) => {
    await tx.execute(sql.raw(`SET LOCAL ROLE ${SEED_ROLE}`));
    const customer = await createCustomer(tx, {
      name: input.customer_name ?? `World ${tag}`,
      demoMode: input.demo_mode,
      entitlements: input.entitlements,
    });
    await audit(tx, customer.id, 'customers.customer', customer.id, customer.name);
    const roleIds = new Map<string, number>();
    const out: WorldOut = {
      customer: { id: customer.id, name: customer.name },
      staff: {},
      ops: null,
      processes: {},
      subjects: {},
    };
    for (const person of input.staff) {
      let roleId = roleIds.get(person.role);
      if (roleId === undefined) {
        roleId = (
          await createRole(tx, {
            customerId: customer.id,
            name: person.role,
            permissions: person.role,
          })
        ).id;
        roleIds.set(person.role, roleId);
        await audit(tx, customer.id, 'users.role', roleId, person.role);
      }
      const user = await createProductUser(tx, {
        customerId: customer.id,
        username: `${person.key}@${domain}`,
        firstName: person.first_name ?? person.key,
        lastName: person.last_name ?? 'World',
        password: input.password,
        roles: [roleId],
        totpSecret:
          person.totp && input.totp_secret ? seal(secrets, 'totp', input.totp_secret) : null,
      });
      await audit(tx, customer.id, 'users.productuser', user.id, user.username);
      out.staff[person.key] = { id: user.id, username: user.username };
    }
    if (input.ops) {
      const ops = await createProductUser(tx, {
        customerId: null,
        username: `ops@${domain}`,
        firstName: 'Ops',
        lastName: 'World',
        password: input.password,
        roles: ['ops'],
      });
      await audit(tx, null, 'users.productuser', ops.id, ops.username);
      out.ops = { id: ops.id, username: ops.username };
    }
    for (const p of input.processes) {
      const made = await createProcess(tx, {
        customerId: customer.id,
        name: p.name,
        description: p.description,
        sendInvitation: p.send_invitation,
        requirements: p.requirements,
      });
      await audit(tx, customer.id, 'processes.process', made.id, made.name);
      out.processes[p.name] = made.id;
    }
    for (const s of input.subjects) {
      const made = await createSubjectUser(tx, {
        customerId: customer.id,
        email: `${s.key}${s.email_tag ? `+${s.email_tag}` : ''}@${domain}`,
        firstName: s.first_name,
        lastName: s.last_name,
        dob: s.dob,
        password: input.password,
        termsAgreedAt: s.terms_agreed ? new Date() : null,
      });
      await audit(tx, customer.id, 'subjects.subject', made.id, made.email);
      out.subjects[s.key] = { id: made.id, user_id: made.login.id, email: made.email };
    }
    return out;
  });
}

export const caseDataIn = z.object({
  customer: z.number().int().positive(),
  case: z.number().int().positive(),
  gender: z.enum(['female', 'male']).default('female'),
});

/** The demo case's case data (case-data.seed.ts) for one case, each part audited. */
export async function makeCaseData(
  db: FastifyInstance['deps']['db'],
  actor: Actor,
  input: z.infer<typeof caseDataIn>,
  today: Date,
): Promise<{ case: number }> {
  return db.ownerTransaction(async (tx) => {
    await tx.execute(sql.raw(`SET LOCAL ROLE ${SEED_ROLE}`));
    const [row] = await tx
      .select({
        firstName: subjects.firstName,
        middlename: subjects.middlename,
        lastName: subjects.lastName,
        dob: subjects.dob,
      })
      .from(cases)
      .innerJoin(subjects, eq(subjects.id, cases.subjectId))
      .where(and(eq(cases.id, input.case), eq(cases.customerId, input.customer)));
    if (!row) throw new NotFoundError();
    const key = { customerId: input.customer, caseId: input.case };
    const person = {
      forename: row.firstName,
      middlename: row.middlename,
      surname: row.lastName,
      dob: row.dob ?? '1990-05-17',
      gender: input.gender,
    };
    await createCaseBasicDetails(tx, key, person);
    await createCaseBirthDetails(tx, key);
    await createCaseOtherName(tx, key, {
      forename: person.forename,
      surname: 'Núñez-Ó Briain',
      surnameDbs: 'Nunez-O Briain',
      fromDate: '2008-06-01',
      toDate: '2015-03-31',
    });
    await createAddressHistory(tx, key, today);
    await createCasePassport(tx, key, today);
    await createCaseDrivingLicence(tx, key, person, today);
    await recordAudit(tx, actor, {
      verb: 'updated',
      contentType: 'cases.case',
      objectId: input.case,
      objectRepr: `Case ${input.case}`,
      changes: { fixture: 'e2e case data' },
      customerId: input.customer,
    });
    return { case: input.case };
  });
}

export const testPlatformCallbackIn = z.object({ activity: z.number().int().positive() });

/**
 * What the online test platform does when a candidate finishes: its simulator (the engine's, on
 * the providers' clock that POST /api/ops/checks/simulator/advance/ moves) makes its signed
 * callback of the activity's invitation as it stands now, and it is posted to the product's
 * callback route (`/callbacks/checks/test-platform/{activity}/`, signature checked there) as the
 * platform would post it. The route's answer is returned. 404 when the activity has no invitation
 * or the platform is not the simulator.
 */
export async function postTestPlatformCallback(
  app: FastifyInstance,
  activity: number,
): Promise<{ status: number; body: unknown }> {
  const reference = await app.deps.db.ownerTransaction(async (tx) => {
    const [row] = await tx
      .select({ processing: caseActivities.processingData })
      .from(caseActivities)
      .where(eq(caseActivities.id, activity));
    const ref = row?.processing.reference;
    return typeof ref === 'string' ? ref : null;
  });
  const platform = providerOf(checkEngine(app.deps), testPlatformProvider);
  if (!reference || !(platform instanceof TestPlatformSimulator)) throw new NotFoundError();
  const { body, headers } = platform.callbackFor(reference);
  const res = await app.inject({
    method: 'POST',
    url: `/callbacks/checks/${testPlatformProvider.name}/${activity}/`,
    headers,
    payload: body,
  });
  let answer: unknown = res.body;
  try {
    answer = res.json();
  } catch {
    // not JSON: the text as it came
  }
  return { status: res.statusCode, body: answer };
}

const subscriptionsDueIn = z.object({
  customer: z.number().int().positive(),
  at: z.iso.datetime(),
});

/** Mounted by app.ts; registers nothing unless KESTREL_E2E_FIXTURES=1. */
export async function e2eFixturesRoutes(app: FastifyInstance) {
  if (!e2eFixturesEnabled()) return;
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    WORLDS_PATH,
    {
      schema: { hide: true, body: worldIn },
      // Anyone who can reach a test server (a world needs no login to be made); CSRF as always.
      config: { access: { audience: 'public' } },
    },
    async (request, reply) => {
      const input = parseBody(worldIn, request.body);
      const actor = { ...actorOf(request), name: 'e2e fixtures' };
      reply.code(201);
      return makeWorld(app.deps.db, app.deps.secrets, actor, input);
    },
  );
  r.post(
    CASE_DATA_PATH,
    {
      schema: { hide: true, body: caseDataIn },
      config: { access: { audience: 'public' } },
    },
    async (request, reply) => {
      const input = parseBody(caseDataIn, request.body);
      const actor = { ...actorOf(request), name: 'e2e fixtures' };
      reply.code(201);
      return makeCaseData(app.deps.db, actor, input, app.deps.clock.now());
    },
  );
  r.post(
    TEST_PLATFORM_CALLBACK_PATH,
    {
      schema: { hide: true, body: testPlatformCallbackIn },
      config: { access: { audience: 'public' } },
    },
    async (request) => {
      const input = parseBody(testPlatformCallbackIn, request.body);
      return postTestPlatformCallback(app, input.activity);
    },
  );
  r.post(
    SUBSCRIPTIONS_DUE_PATH,
    {
      schema: { hide: true, body: subscriptionsDueIn },
      config: { access: { audience: 'public' } },
    },
    async (request) => {
      const input = parseBody(subscriptionsDueIn, request.body);
      const at = new Date(input.at);
      const deps = { ...app.deps, clock: { now: () => at } };
      let handled = 0;
      for (;;) {
        const n = await runInTenant(deps, jobActor(input.customer), (ctx) =>
          runDueBatch(ctx, { publicUrl: app.deps.config.publicUrl }),
        );
        handled += n;
        if (n < DUE_BATCH) break;
      }
      return { handled };
    },
  );
  r.post(
    REMINDERS_DUE_PATH,
    {
      schema: { hide: true, body: subscriptionsDueIn },
      config: { access: { audience: 'public' } },
    },
    async (request) => {
      const input = parseBody(subscriptionsDueIn, request.body);
      const at = new Date(input.at);
      return runRemindersDue({ ...app.deps, clock: { now: () => at } }, input.customer);
    },
  );
}
