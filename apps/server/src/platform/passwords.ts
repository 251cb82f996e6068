import { hash, verify } from '@node-rs/argon2';

type HashOptions = {
  algorithm: 2;
  memoryCost: number;
  timeCost: number;
  parallelism: number;
};

/** OWASP baseline for argon2id: m=19 MiB, t=2, p=1. */
export const PASSWORD_HASH_OPTIONS: HashOptions = {
  algorithm: 2 /* Argon2id (a const enum, unusable with isolatedModules) */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

/**
 * The server's own test runs only (KESTREL_TEST_FAST_HASH=1, set by apps/server/vitest.config.ts;
 * ignored when NODE_ENV=production): argon2id at a small cost. A login verifies with the
 * parameters stored in the hash, so the suite's logins cost 0.2 ms instead of 20 ms of CPU.
 * passwords.test.ts holds the production parameters.
 */
const TEST_HASH_OPTIONS: HashOptions = { ...PASSWORD_HASH_OPTIONS, memoryCost: 64, timeCost: 1 };

/** The parameters new hashes get under `env`. */
export function passwordHashOptions(env: NodeJS.ProcessEnv = process.env): HashOptions {
  return env.KESTREL_TEST_FAST_HASH === '1' && env.NODE_ENV !== 'production'
    ? TEST_HASH_OPTIONS
    : PASSWORD_HASH_OPTIONS;
}

/** argon2id PHC string. */
export function hashPassword(password: string, options = passwordHashOptions()): Promise<string> {
  return hash(password, options);
}

let dummy: Promise<string> | null = null;

/**
 * Verifies a password. With no stored hash (unknown or unclaimed account) it still verifies
 * against a dummy hash, so both cases take about the same time.
 */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    dummy ??= hashPassword('kestrel-dummy-password-for-timing');
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
