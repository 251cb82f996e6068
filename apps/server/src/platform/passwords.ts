import { hash, verify } from '@node-rs/argon2';

// OWASP baseline for argon2id: m=19 MiB, t=2, p=1.
const OPTIONS = {
  algorithm: 2 /* Argon2id (a const enum, unusable with isolatedModules) */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

/** argon2id PHC string. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
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
