import type { AppConfig } from './config.js';
import type { Database } from './db/connection.js';
import type { AnonymousCsrf } from './platform/anonymous-csrf.js';
import type { Clock } from './platform/clock.js';
import type { JobQueue } from './platform/jobs.js';
import type { Mailer } from './platform/mailer.js';
import type { MaintenanceService } from './platform/maintenance.js';
import type { RateLimiter } from './platform/rate-limit.js';
import type { ServerSecrets } from './platform/server-secrets.js';
import type { SessionStore } from './platform/sessions.js';
import type { OsDatahubTokenProvider } from './providers/os-datahub/provider.js';
import type { SmsProvider } from './providers/sms/provider.js';
import type { DocumentStorage } from './providers/storage/provider.js';

/** Everything routes and services need, built once in buildApp (`request.server.deps`). */
export interface AppDeps {
  db: Database;
  clock: Clock;
  mailer: Mailer;
  config: AppConfig;
  sessions: SessionStore;
  maintenance: MaintenanceService;
  rateLimiter: RateLimiter;
  /** This installation's secrets (`server_secrets`), the ones the modules declared. */
  secrets: ServerSecrets;
  /** CSRF tokens of visitors who have not logged in (no stored session). */
  anonymousCsrf: AnonymousCsrf;
  /** The job queue of this process (workers, schedules); enqueue with `enqueue(tx, job)`. */
  jobs: JobQueue<AppDeps>;
  /** OS Data Hub tokens for the live address search; null when not configured (fake lookup). */
  osDatahub: OsDatahubTokenProvider | null;
  /** Where case documents' files are kept (local disk or an S3-compatible bucket). */
  storage: DocumentStorage;
  /** Text messages (issue 33): GOV.UK Notify when NOTIFY_API_KEY is set, else the simulator. */
  sms: SmsProvider;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}
