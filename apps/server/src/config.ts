import { resolve } from 'node:path';
import {
  KEY_ID,
  type MasterKey,
  parseKeyMaterial,
  parseMasterKeys,
} from './providers/storage/key-ring.js';

/** The self-initiate registrations' limits a configuration that names none has (issue 31). */
export const REGISTRATION_RATE_LIMITS = {
  registrationsPerAddress: 20,
  registrationsPerPortal: 300,
} as const;

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
  /**
   * Queue the start-up catch-ups (the update service cycles a minute after a start, making up a
   * morning run missed while the servers were down). STARTUP_CATCH_UP=0: none (the tests'
   * servers, whose moved clocks would otherwise be run over a minute after each start).
   */
  startupCatchUp: boolean;
  /**
   * Seconds between an idle worker's looks for due jobs (JOB_POLLING_SECONDS, default 2). A job
   * the app commits wakes its worker at once; the interval is how late a delayed job, a retry or a
   * scheduled one may start. Each look is one query per queue: about 36 queues every 2 s cost an
   * idle server's PostgreSQL about a tenth of a core.
   */
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
  /** Where document files are kept and how large an upload may be (README "Configuration"). */
  storage: StorageConfig;
  /** The master keys that encrypt document files at rest (docs/decisions/026-encryption-at-rest.md). */
  encryption: EncryptionConfig;
  /** The online identity check's provider (providers/idv, README "Configuration"). */
  idv: IdvConfig;
  /**
   * How many real seconds a simulated day lasts for the check engine's simulated providers
   * (CHECKS_SIMULATOR_DAY_SECONDS; real providers are not affected): 86400 keeps real
   * timelines; the embedded demo's default makes an enhanced check (7 simulated days) answer in
   * about a minute (docs/decisions/019-simulator-speed.md).
   */
  checksSimulatorDaySeconds: number;
  /**
   * Webhook deliveries may go to private, loopback and link-local addresses
   * (WEBHOOKS_ALLOW_PRIVATE=1; tests and a local set-up). Off: such endpoints are refused.
   */
  webhooksAllowPrivate?: boolean;
  rateLimits: {
    /** attempts per window per account (a login: per account and address) */
    perAccount: number;
    /** attempts per window per address */
    perAddress: number;
    /** public reads (the licensing council pages' API) per window per address */
    publicReadsPerAddress: number;
    windowMs: number;
    /** login attempts on one account, from anywhere, that make it "under attack" */
    accountUnderAttack: number;
    /** failed logins per account and address while the account is under attack */
    perSourceUnderAttack: number;
    /** requests per window per API key (issue 33); default API_KEY_REQUESTS_PER_WINDOW */
    apiKeyRequests?: number;
    /** self-initiate registrations per window per address, every portal together (issue 31) */
    registrationsPerAddress?: number;
    /** self-initiate registrations per window per portal, every address together (issue 31) */
    registrationsPerPortal?: number;
  };
}

/**
 * IDV_PROVIDER=simulator (default: the provider's pages served by this server) or api (the real
 * client: IDV_API_URL and IDV_API_KEY); IDV_CALLBACK_SECRET signs the provider's callbacks (the
 * simulator makes one up per process when unset).
 */
export interface IdvConfig {
  provider: 'simulator' | 'api';
  apiUrl: string | null;
  apiKey: string | null;
  callbackSecret: string | null;
}

/**
 * Encryption at rest: ENCRYPTION_KEYS (`id:key` pairs, keys of 32 bytes as hex or base64) and
 * ENCRYPTION_CURRENT_KEY (the id new files are wrapped with; default the first listed). No keys:
 * the installation's development key (made at random on the first start and kept in
 * `server_secrets`), logged as such; refused in production.
 */
export interface EncryptionConfig {
  keys: MasterKey[];
  currentKeyId: string | null;
  /**
   * ENCRYPTION_INDEX_KEY: the key of the keyed hashes beside encrypted fields (exact-match
   * search, modules/encryption/field-cipher.ts); it does not rotate. Absent: the development one.
   */
  indexKey?: Buffer | null;
}

/** Document storage: local disk (default) or an S3-compatible bucket. */
export interface StorageConfig {
  driver: 'local' | 's3';
  /** Folder of the local store; null = DATA_DIR/documents (a temporary folder without DATA_DIR). */
  localDir: string | null;
  /** Folder where uploads are received before they are stored; null = the OS's temporary folder. */
  spoolDir: string | null;
  /** Largest file accepted, in bytes: a larger one is answered 413 while it streams. */
  maxUploadBytes: number;
  /** Most pages (files) one document may have. */
  maxPages: number;
  s3: {
    endpoint: string;
    region: string;
    bucket: string;
    accessKeyId: string;
    secretAccessKey: string;
    forcePathStyle: boolean;
    timeoutMs: number;
  } | null;
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
  startupCatchUp: true,
  jobPollingSeconds: 2,
  smtpTimeoutMs: 15_000,
  trustProxy: false,
  osDatahubKey: null,
  osDatahubSecret: null,
  idv: { provider: 'simulator', apiUrl: null, apiKey: null, callbackSecret: null },
  encryption: { keys: [], currentKeyId: null },
  // apps built by tests keep real timelines: they move their clocks themselves
  checksSimulatorDaySeconds: 86_400,
  storage: {
    driver: 'local',
    localDir: null,
    spoolDir: null,
    maxUploadBytes: 25 * 1024 * 1024,
    maxPages: 10,
    s3: null,
  },
  rateLimits: {
    perAccount: 10,
    perAddress: 50,
    publicReadsPerAddress: 900,
    windowMs: 15 * 60_000,
    accountUnderAttack: 100,
    perSourceUnderAttack: 3,
    ...REGISTRATION_RATE_LIMITS,
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

/**
 * STORAGE_DRIVER=local (default: files under STORAGE_DIR, else DATA_DIR/documents) or s3 (S3_ENDPOINT,
 * S3_REGION, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE); UPLOAD_MAX_BYTES
 * and UPLOAD_MAX_PAGES bound uploads. An s3 driver without its endpoint, bucket or keys stops the
 * start rather than losing documents later.
 */
export function readStorageConfig(
  env: NodeJS.ProcessEnv,
  cwd: string,
  dataDir: string | null,
): StorageConfig {
  const d = defaultConfig.storage;
  const driver = env.STORAGE_DRIVER === 's3' ? 's3' : 'local';
  if (env.STORAGE_DRIVER && env.STORAGE_DRIVER !== 's3' && env.STORAGE_DRIVER !== 'local') {
    throw new Error(`STORAGE_DRIVER must be local or s3, not ${env.STORAGE_DRIVER}`);
  }
  let s3: StorageConfig['s3'] = null;
  if (driver === 's3') {
    const missing = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].filter(
      (k) => !env[k],
    );
    if (missing.length > 0) throw new Error(`STORAGE_DRIVER=s3 needs ${missing.join(', ')}`);
    s3 = {
      endpoint: env.S3_ENDPOINT ?? '',
      region: env.S3_REGION || 'us-east-1',
      bucket: env.S3_BUCKET ?? '',
      accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
      forcePathStyle: env.S3_FORCE_PATH_STYLE === '1' || env.S3_FORCE_PATH_STYLE === 'true',
      timeoutMs: num(env.S3_TIMEOUT_MS, 60_000),
    };
  }
  return {
    driver,
    localDir: env.STORAGE_DIR
      ? resolve(cwd, env.STORAGE_DIR)
      : dataDir
        ? resolve(dataDir, 'documents')
        : null,
    spoolDir: env.UPLOAD_SPOOL_DIR ? resolve(cwd, env.UPLOAD_SPOOL_DIR) : null,
    maxUploadBytes: num(env.UPLOAD_MAX_BYTES, d.maxUploadBytes),
    maxPages: num(env.UPLOAD_MAX_PAGES, d.maxPages),
    s3,
  };
}

/**
 * ENCRYPTION_KEYS, ENCRYPTION_CURRENT_KEY and ENCRYPTION_INDEX_KEY (EncryptionConfig). A
 * production installation (NODE_ENV=production on PostgreSQL: DATABASE_URL) without master keys
 * or without the index key stops the start, as a real
 * provider without its callback secret does: the development key lives in the database beside
 * the data it protects. The embedded demo (`npm start` without DATABASE_URL) keeps working.
 */
export function readEncryptionConfig(env: NodeJS.ProcessEnv): EncryptionConfig {
  const keys = parseMasterKeys(env.ENCRYPTION_KEYS ?? '');
  const current = env.ENCRYPTION_CURRENT_KEY || null;
  const indexKey = env.ENCRYPTION_INDEX_KEY
    ? parseKeyMaterial('ENCRYPTION_INDEX_KEY', env.ENCRYPTION_INDEX_KEY)
    : null;
  const production = env.NODE_ENV === 'production' && Boolean(env.DATABASE_URL);
  const withIndex = (): { indexKey?: Buffer } => {
    if (indexKey) return { indexKey };
    if (!production) return {};
    throw new Error(
      'ENCRYPTION_INDEX_KEY is required in production (NODE_ENV=production with DATABASE_URL): ' +
        'the key of the searchable hashes of encrypted fields, 32 random bytes as hex or base64 ' +
        '(e.g. `openssl rand -base64 32`), kept for good (it does not rotate)',
    );
  };
  if (keys.length === 0) {
    if (current) throw new Error('ENCRYPTION_CURRENT_KEY needs ENCRYPTION_KEYS');
    if (production) {
      throw new Error(
        'ENCRYPTION_KEYS is required in production (NODE_ENV=production with DATABASE_URL): ' +
          'id:key pairs, each key 32 random bytes as hex or base64 (e.g. `openssl rand -base64 32`)',
      );
    }
    return { keys: [], currentKeyId: null, ...withIndex() };
  }
  if (current !== null && !KEY_ID.test(current)) {
    throw new Error(`ENCRYPTION_CURRENT_KEY: invalid key id ${JSON.stringify(current)}`);
  }
  const currentKeyId = current ?? keys[0]?.id ?? null;
  if (!keys.some((k) => k.id === currentKeyId)) {
    throw new Error(`ENCRYPTION_CURRENT_KEY ${currentKeyId} is not one of ENCRYPTION_KEYS`);
  }
  const seen = new Set<string>();
  for (const k of keys) {
    if (seen.has(k.id)) throw new Error(`ENCRYPTION_KEYS names ${k.id} twice`);
    seen.add(k.id);
  }
  return { keys, currentKeyId, ...withIndex() };
}

/** IDV_*: the api provider without its URL, key or callback secret stops the start. */
export function readIdvConfig(env: NodeJS.ProcessEnv): IdvConfig {
  const provider = env.IDV_PROVIDER || 'simulator';
  if (provider !== 'simulator' && provider !== 'api') {
    throw new Error(`IDV_PROVIDER must be simulator or api, not ${provider}`);
  }
  if (provider === 'api') {
    const missing = ['IDV_API_URL', 'IDV_API_KEY', 'IDV_CALLBACK_SECRET'].filter((k) => !env[k]);
    if (missing.length > 0) throw new Error(`IDV_PROVIDER=api needs ${missing.join(', ')}`);
  }
  return {
    provider,
    apiUrl: env.IDV_API_URL || null,
    apiKey: env.IDV_API_KEY || null,
    callbackSecret: env.IDV_CALLBACK_SECRET || null,
  };
}

/** A simulated day on the embedded demo: an enhanced check (7 simulated days) in 70 s. */
export const DEMO_SIMULATOR_DAY_SECONDS = 10;

/**
 * CHECKS_SIMULATOR_DAY_SECONDS when set (any positive number of seconds); unset, the embedded
 * demo (no DATABASE_URL) runs its simulated providers a day every 10 s, a PostgreSQL set-up and
 * the browser tests' simulator control (which moves the simulated clock itself) a day a day.
 */
export function readSimulatorDaySeconds(env: NodeJS.ProcessEnv): number {
  const v = env.CHECKS_SIMULATOR_DAY_SECONDS;
  if (v !== undefined && v !== '') {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) {
      throw new Error('CHECKS_SIMULATOR_DAY_SECONDS must be a number of seconds above 0');
    }
    return n;
  }
  if (env.DATABASE_URL || env.CHECKS_SIMULATOR_CONTROL === '1') return 86_400;
  return DEMO_SIMULATOR_DAY_SECONDS;
}

/** JOB_POLLING_SECONDS: at least half a second (pg-boss's least), default 2. */
export function readJobPollingSeconds(env: NodeJS.ProcessEnv): number {
  const v = env.JOB_POLLING_SECONDS;
  if (v === undefined || v === '') return defaultConfig.jobPollingSeconds;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0.5) {
    throw new Error('JOB_POLLING_SECONDS must be a number of seconds, at least 0.5');
  }
  return n;
}

/** Reads the configuration from environment variables; paths are relative to `cwd` (repo root). */
export function readConfig(env: NodeJS.ProcessEnv, cwd: string): AppConfig {
  const port = num(env.PORT, defaultConfig.port);
  const dataDir = resolve(cwd, env.DATA_DIR || './data');
  return {
    ...defaultConfig,
    port,
    host: env.HOST || defaultConfig.host,
    dataDir,
    storage: readStorageConfig(env, cwd, dataDir),
    idv: readIdvConfig(env),
    encryption: readEncryptionConfig(env),
    checksSimulatorDaySeconds: readSimulatorDaySeconds(env),
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
    startupCatchUp: env.STARTUP_CATCH_UP !== '0' && env.STARTUP_CATCH_UP !== 'false',
    jobPollingSeconds: readJobPollingSeconds(env),
    smtpTimeoutMs: num(env.SMTP_TIMEOUT_MS, defaultConfig.smtpTimeoutMs),
    osDatahubKey: env.OS_DATAHUB_KEY || null,
    osDatahubSecret: env.OS_DATAHUB_SECRET || null,
    webhooksAllowPrivate: env.WEBHOOKS_ALLOW_PRIVATE === '1',
    rateLimits: {
      ...defaultConfig.rateLimits,
      // Many people behind one address (an office's NAT, a test suite) may need more.
      perAddress: num(env.LOGIN_LIMIT_PER_ADDRESS, defaultConfig.rateLimits.perAddress),
    },
  };
}
