import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import { OS_PLACES_ORIGIN } from '@kestrel/domain';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppDeps } from './app-deps.js';
import { type AppConfig, defaultConfig } from './config.js';
import type { Database } from './db/connection.js';
import { jobKinds } from './jobs/index.js';
import { contentTypes } from './modules/bootstrap/bootstrap.table.js';
import { discoverModules } from './modules/discover.js';
import { e2eFixturesRoutes } from './modules/e2e-fixtures/e2e-fixtures.routes.js';
import { installFieldCipher, loadFieldCipher } from './modules/encryption/field-cipher.js';
import { loadKeyRing } from './modules/encryption/key-ring.js';
import { checkAccess, type RouteAccess } from './platform/access.js';
import { AnonymousCsrf } from './platform/anonymous-csrf.js';
import { registerBodyParsing } from './platform/body-parsing.js';
import { type Clock, systemClock } from './platform/clock.js';
import { registerErrorHandler } from './platform/error-handler.js';
import { type JobKind, JobQueue } from './platform/jobs.js';
import { loggerOptions } from './platform/logging.js';
import { createMailer, type Mailer } from './platform/mailer.js';
import { MaintenanceService } from './platform/maintenance.js';
import type { KestrelModule } from './platform/module.js';
import { registerApiDocs, registerOpenApi } from './platform/openapi.js';
import { RateLimiter } from './platform/rate-limit.js';
import { registeredContentTypes } from './platform/resource-router.js';
import { SEALING_KEY_SECRET, sealStoredSecrets } from './platform/sealed-secrets.js';
import { helmetOptionsFor, securityHeaders } from './platform/security-headers.js';
import { ANONYMOUS_CSRF_SECRET, ServerSecrets } from './platform/server-secrets.js';
import { SessionStore } from './platform/sessions.js';
import { registerWebStatic } from './platform/web-static.js';
import { createOsDatahubClient } from './providers/os-datahub/client.js';
import type { OsDatahubTokenProvider } from './providers/os-datahub/provider.js';
import { createSmsProvider, smsSettingsFromEnv } from './providers/sms/index.js';
import type { SmsProvider } from './providers/sms/provider.js';
import { EncryptingStorage } from './providers/storage/encrypted.js';
import type { DocumentStorage } from './providers/storage/provider.js';
import { createStorage } from './providers/storage/select.js';

export interface BuildAppOptions {
  db: Database;
  clock?: Clock;
  mailer?: Mailer;
  /** Where documents' files go; default: the configuration's (local disk). */
  storage?: DocumentStorage;
  config?: Partial<AppConfig>;
  /** Pino logging (false in tests). */
  logger?: boolean;
  /** Modules to load; default: every src/modules/<name>/module.ts. */
  modules?: KestrelModule[];
  /** Job kinds besides src/jobs' (test-only kinds). */
  extraJobs?: JobKind<unknown, AppDeps>[];
  /** OS Data Hub tokens; default: the real client when the configuration has credentials. */
  osDatahub?: OsDatahubTokenProvider | null;
  /** Text messages; default: Notify when NOTIFY_API_KEY is set, else the simulator. */
  sms?: SmsProvider;
}

/** One registered route (tests walk them, e.g. for CSRF). */
export interface RouteEntry {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[];
    /** Each route's declared access (`METHOD url` → config.access), for route-walking tests. */
    routeAccess: Map<string, RouteAccess | undefined>;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Fastify's trust of X-Forwarded-*: a hop count trusts the nearest `hops` addresses (the socket's,
 * then those proxies appended, right to left); a list trusts only those addresses. Never `true`,
 * which would take the left-most address, the one the client wrote.
 */
function proxyTrust(
  trust: AppConfig['trustProxy'],
): false | string[] | ((a: string, i: number) => boolean) {
  if (trust === false || trust === 0) return false;
  if (typeof trust === 'number') return (_address, i) => i < trust;
  return trust;
}

/** The composition root: builds the Fastify app from its dependencies. */
export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const config: AppConfig = { ...defaultConfig, ...opts.config };
  const clock = opts.clock ?? systemClock;
  const { db } = opts;
  let log: FastifyInstance['log'] | null = null;
  const modules = opts.modules ?? (await discoverModules());
  const secrets = await ServerSecrets.load(db, [
    ANONYMOUS_CSRF_SECRET,
    SEALING_KEY_SECRET,
    ...modules.flatMap((m) => m.secrets ?? []),
  ]);
  // Secrets stored before sealing (and the demo seed's) are sealed before anything reads them.
  await sealStoredSecrets(db, secrets);
  const storage =
    opts.storage ?? createStorage(config.storage, await loadKeyRing(db, config.encryption));
  // the most sensitive fields encrypted in the database under the same master keys, loaded once
  // for the process (modules/encryption/field-cipher.ts, decision 027)
  installFieldCipher(
    await loadFieldCipher(
      db,
      config.encryption,
      storage instanceof EncryptingStorage ? storage.keys : undefined,
    ),
  );
  const deps: AppDeps = {
    db,
    clock,
    config,
    mailer: opts.mailer ?? createMailer(config.smtpUrl, config.mailFrom, config.smtpTimeoutMs),
    sessions: new SessionStore(db, clock, {
      cacheMs: config.sessionCacheMs,
      idleMs: config.sessionIdleMs,
      absoluteMs: config.sessionAbsoluteMs,
    }),
    maintenance: new MaintenanceService(db, clock, config.maintenanceCacheMs),
    rateLimiter: new RateLimiter(db, clock, config.rateLimits.windowMs),
    secrets,
    anonymousCsrf: new AnonymousCsrf(secrets),
    // documents encrypted at rest under this installation's master keys (modules/encryption)
    storage,
    jobs: new JobQueue<AppDeps>(db, [...jobKinds, ...(opts.extraJobs ?? [])], () => deps, {
      workers: config.jobWorkers,
      pollingSeconds: config.jobPollingSeconds,
      onError: (err, context) => log?.error({ err, context }, 'job queue'),
    }),
    osDatahub:
      opts.osDatahub !== undefined
        ? opts.osDatahub
        : config.osDatahubKey && config.osDatahubSecret
          ? createOsDatahubClient({
              key: config.osDatahubKey,
              secret: config.osDatahubSecret,
              clock,
            })
          : null,
    sms: opts.sms ?? createSmsProvider(smsSettingsFromEnv(process.env)),
  };
  // Sessions forgotten by another server process are forgotten here too (database notifications).
  await deps.sessions.start();
  await deps.maintenance.start();

  const app = Fastify({
    logger: opts.logger ? loggerOptions(config) : false,
    trustProxy: proxyTrust(config.trustProxy),
    requestIdHeader: false, // genReqId takes a well-formed X-Request-Id, else makes one
    genReqId: (req) => {
      const sent = req.headers['x-request-id'];
      return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200 },
  });
  log = app.log;
  app.decorate('deps', deps);
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  const routeAccess = new Map<string, RouteAccess | undefined>();
  app.decorate('routeAccess', routeAccess);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routeTable.push({ method, url: route.url });
      routeAccess.set(`${method} ${route.url}`, route.config?.access);
    }
  });
  app.decorateRequest('session', null);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerBodyParsing(app);

  await app.register(fastifyCookie);
  // The live address search (OS Places) is a browser call: its origin only when configured.
  const secureHeaders = securityHeaders(
    helmetOptionsFor({ connectSrc: deps.osDatahub ? [OS_PLACES_ORIGIN] : [] }),
  );
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(secureHeaders);
    reply.header('x-request-id', request.id);
    if (request.protocol === 'https') {
      reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    }
  });
  app.addHook('onRequest', checkAccess);

  await registerOpenApi(app, config.publicUrl);

  app.get('/healthz', async (_request, reply) => {
    try {
      await db.ping();
      return { status: 'ok' };
    } catch {
      reply.code(503);
      return { status: 'unavailable' };
    }
  });
  registerApiDocs(app);

  const names = new Set<string>();
  for (const m of modules) {
    for (const ct of m.contentTypes ?? []) names.add(ct);
    if (m.routes) await app.register(m.routes);
  }
  // Browser tests' own worlds: only with KESTREL_E2E_FIXTURES=1 (e2e global setup), never npm start.
  await app.register(e2eFixturesRoutes);

  await registerWebStatic(app, config.webDist);

  // Workers and schedules (housekeeping) once the app is ready; running jobs end on close.
  app.addHook('onReady', () => deps.jobs.start());
  app.addHook('onClose', () => deps.jobs.stop());

  app.addHook('onReady', async () => {
    const all = [...names, ...registeredContentTypes()];
    const values = [...new Set(all)].flatMap((n) => {
      const [appLabel, model] = n.split('.');
      return appLabel && model ? [{ appLabel, model }] : [];
    });
    if (values.length > 0) {
      // Reference data, registered at start by the owner as the migrations' reference data is
      // (no request or job role may write it, decision 011).
      await db.ownerTransaction((tx) =>
        tx.insert(contentTypes).values(values).onConflictDoNothing(),
      );
    }
  });
  return app;
}
