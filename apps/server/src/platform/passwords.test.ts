import { describe, expect, it } from 'vitest';
import {
  hashPassword,
  PASSWORD_HASH_OPTIONS,
  passwordHashOptions,
  verifyPassword,
} from './passwords.js';

describe('password hashing', () => {
  it('uses argon2id at the OWASP baseline (m=19 MiB, t=2, p=1) outside the test runs', async () => {
    expect(passwordHashOptions({})).toEqual(PASSWORD_HASH_OPTIONS);
    expect(passwordHashOptions({ NODE_ENV: 'production', KESTREL_TEST_FAST_HASH: '1' })).toEqual(
      PASSWORD_HASH_OPTIONS,
    );
    const stored = await hashPassword('a-long-enough-password', passwordHashOptions({}));
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'a-long-enough-password')).toBe(true);
    expect(await verifyPassword(stored, 'another-password')).toBe(false);
  });

  it('hashes at a small cost in the server test runs only (KESTREL_TEST_FAST_HASH=1)', async () => {
    const fast = passwordHashOptions({ NODE_ENV: 'test', KESTREL_TEST_FAST_HASH: '1' });
    expect(fast.memoryCost).toBeLessThan(PASSWORD_HASH_OPTIONS.memoryCost);
    expect(passwordHashOptions()).toEqual(fast); // what this run hashes with (vitest.config.ts)
    const stored = await hashPassword('a-long-enough-password');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
    expect(await verifyPassword(stored, 'a-long-enough-password')).toBe(true);
    expect(await verifyPassword(null, 'a-long-enough-password')).toBe(false);
  });
});
