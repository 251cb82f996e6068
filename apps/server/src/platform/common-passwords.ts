import { readFileSync } from 'node:fs';

/** The lists, beside the sources (apps/server/assets): found from src/ and from the compiled dist/. */
const folder = new URL('../../assets/common-passwords/', import.meta.url);

/**
 * Common and breached passwords shipped with the product (see assets/common-passwords/README.md),
 * lower-cased: ~54,000 entries, read once when the module is first loaded (about 0.7 MB).
 */
const COMMON = new Set(
  ['top-10000.txt', 'top-1m-12-or-more.txt'].flatMap((name) =>
    readFileSync(new URL(name, folder), 'utf8')
      .split('\n')
      .filter((line) => line !== ''),
  ),
);

/** True when the password is on the shipped list of common and breached passwords (any case). */
export function isCommonPassword(password: string): boolean {
  return COMMON.has(password.toLowerCase());
}
