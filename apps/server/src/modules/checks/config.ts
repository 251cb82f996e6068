/**
 * The check engine's configuration (README configuration table). Without a provider's URL and
 * key the engine uses that provider's deterministic simulator.
 */
export interface ChecksConfig {
  dbsBasic: { url: string; key: string } | null;
  ebulk: { url: string; key: string } | null;
  updateServiceUrl: string | null;
  /** HMAC secrets of the providers' callbacks (the simulators sign with the same defaults). */
  dbsBasicCallbackSecret: string;
  ebulkCallbackSecret: string;
  /** A provider call taking longer fails (and is retried). */
  providerTimeoutMs: number;
  /** Automatic retries of a failed start before it waits for operations. */
  maxAttempts: number;
  /** How often an application in progress is polled (a callback may come first). */
  pollSeconds: number;
}

export const SIMULATOR_CALLBACK_SECRETS = {
  'dbs-basic': 'kestrel-simulator-dbs-basic',
  ebulk: 'kestrel-simulator-ebulk',
} as const;

const num = (v: string | undefined, fallback: number) => {
  const n = Number(v);
  return v && Number.isFinite(n) && n >= 0 ? n : fallback;
};

export function readChecksConfig(env: NodeJS.ProcessEnv = process.env): ChecksConfig {
  const pair = (url: string | undefined, key: string | undefined) =>
    url && key ? { url, key } : null;
  const dbsBasic = pair(env.DBS_BASIC_API_URL, env.DBS_BASIC_API_KEY);
  const ebulk = pair(env.EBULK_API_URL, env.EBULK_API_KEY);
  return {
    dbsBasic,
    ebulk,
    updateServiceUrl: env.DBS_UPDATE_SERVICE_URL || null,
    dbsBasicCallbackSecret:
      env.DBS_BASIC_CALLBACK_SECRET || SIMULATOR_CALLBACK_SECRETS['dbs-basic'],
    ebulkCallbackSecret: env.EBULK_CALLBACK_SECRET || SIMULATOR_CALLBACK_SECRETS.ebulk,
    providerTimeoutMs: num(env.PROVIDER_TIMEOUT_MS, 20_000),
    maxAttempts: 5,
    pollSeconds: 6 * 60 * 60,
  };
}

/** True when a real provider is configured without its callback secret: refuse its callbacks. */
export function missingCallbackSecret(env: NodeJS.ProcessEnv = process.env): string[] {
  const out: string[] = [];
  if (env.DBS_BASIC_API_URL && !env.DBS_BASIC_CALLBACK_SECRET)
    out.push('DBS_BASIC_CALLBACK_SECRET');
  if (env.EBULK_API_URL && !env.EBULK_CALLBACK_SECRET) out.push('EBULK_CALLBACK_SECRET');
  return out;
}
