import { resolve } from 'node:path';

/** Runtime configuration, read once from the environment by main.ts and passed to buildApp. */
export interface AppConfig {
  port: number;
  host: string;
  /** Directory of the embedded database; null = in-memory. Ignored when databaseUrl is set. */
  dataDir: string | null;
  /** PostgreSQL as the owner of the tables: migrations only. */
  databaseUrl: string | null;
  /**
   * PostgreSQL as the least-privileged login that serves requests (DATABASE_APP_URL); null =
   * DATABASE_URL's server and database as `kestrel_login` (see db/driver/pg.ts servingUrl).
   */
  databaseAppUrl: string | null;
  /** Base of links (emails of requests through no brand host) and the allowed Origin. */
  publicUrl: string;
  smtpUrl: string | null;
  mailFrom: string;
  logLevel: string;
  /** Directory of the built web app (index.html); null = none. */
  webDist: string | null;
  /** Milliseconds a session stays in the in-process cache before it is re-read. */
  sessionCacheMs: number;
  /** Milliseconds the maintenance windows stay in the in-process cache before they are re-read. */
  maintenanceCacheMs: number;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  /**
   * How often expired sessions, tokens and rate-limit windows are deleted (0 = never), as a
   * recurring job (whole minutes).
   */
  housekeepingMs: number;
  /**
   * Which X-Forwarded-* to believe: false = none; a number = that many proxy hops in front of the
   * server (1: the address the proxy appended, never what the client sent); a list = only from
   * these proxy addresses or CIDR ranges.
   */
  trustProxy: false | number | string[];
  /** Run job workers in this process (JOB_WORKERS=0: this process only enqueues). */
  jobWorkers: boolean;
  /** Seconds between an idle worker's looks for due jobs (a commit wakes it at once). */
  jobPollingSeconds: number;
  /** Milliseconds SMTP may take to connect, greet or answer before the send fails. */
  smtpTimeoutMs: number;
  /**
   * Ordnance Survey Data Hub credentials (OS_DATAHUB_KEY / OS_DATAHUB_SECRET): with both, the
   * address lookup's os-datahub-token answers tokens for the live OS Places search and the CSP
   * allows its origin; without, the fake lookup is the only one.
   */
  osDatahubKey: string | null;
  osDatahubSecret: string | null;
  rateLimits: {
    /** attempts per window per account (a login: per account and address) */
    perAccount: number;
    /** attempts per window per address */
    perAddress: number;
    windowMs: number;
    /** login attempts on one account, from anywhere, that make it "under attack" */
    accountUnderAttack: number;
    /** failed logins per account and address while the account is under attack */
    perSourceUnderAttack: number;
  };
}

export const defaultConfig: AppConfig = {
  port: 8080,
  host: '0.0.0.0',
  dataDir: null,
  databaseUrl: null,
  databaseAppUrl: null,
  publicUrl: 'http://localhost:8080',
  smtpUrl: null,
  mailFrom: 'Kestrel <no-reply@kestrel.test>',
  logLevel: 'info',
  webDist: null,
  sessionCacheMs: 5_000,
  maintenanceCacheMs: 5_000,
  sessionIdleMs: 30 * 60_000,
  sessionAbsoluteMs: 12 * 60 * 60_000,
  housekeepingMs: 0,
  jobWorkers: true,
  jobPollingSeconds: 2,
  smtpTimeoutMs: 15_000,
  trustProxy: false,
  osDatahubKey: null,
  osDatahubSecret: null,
  rateLimits: {
    perAccount: 10,
    perAddress: 50,
    windowMs: 15 * 60_000,
    accountUnderAttack: 100,
    perSourceUnderAttack: 3,
  },
};

function num(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) ? n : fallback;
}

/**
 * TRUST_PROXY: unset, `0` or `false` trusts no proxy; a hop count (`1` = one proxy in front);
 * or a comma-separated list of proxy addresses and CIDR ranges. `true` once trusted every hop a
 * client could send: it now means one hop.
 */
function readTrustProxy(value: string | undefined): false | number | string[] {
  const v = (value ?? '').trim();
  if (v === '' || v === '0' || v === 'false') return false;
  if (v === 'true') return 1;
  if (/^\d+$/.test(v)) return Number(v);
  return v
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

/** Reads the configuration from environment variables; paths are relative to `cwd` (repo root). */
export function readConfig(env: NodeJS.ProcessEnv, cwd: string): AppConfig {
  const port = num(env.PORT, defaultConfig.port);
  return {
    ...defaultConfig,
    port,
    host: env.HOST || defaultConfig.host,
    dataDir: resolve(cwd, env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || null,
    databaseAppUrl: env.DATABASE_APP_URL || null,
    // Without PUBLIC_URL, links point at this server on the port it listens on.
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || defaultConfig.mailFrom,
    logLevel: env.LOG_LEVEL || defaultConfig.logLevel,
    webDist: resolve(cwd, env.WEB_DIST || 'apps/web/dist'),
    trustProxy: readTrustProxy(env.TRUST_PROXY),
    sessionCacheMs: num(env.SESSION_CACHE_MS, defaultConfig.sessionCacheMs),
    housekeepingMs: num(env.HOUSEKEEPING_MS, 10 * 60_000),
    jobWorkers: env.JOB_WORKERS !== '0' && env.JOB_WORKERS !== 'false',
    smtpTimeoutMs: num(env.SMTP_TIMEOUT_MS, defaultConfig.smtpTimeoutMs),
    osDatahubKey: env.OS_DATAHUB_KEY || null,
    osDatahubSecret: env.OS_DATAHUB_SECRET || null,
  };
}
