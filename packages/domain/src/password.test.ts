import { describe, expect, it } from 'vitest';
import { firstIssueMessage } from './first-message.js';
import { passwordStrengthSchema } from './password.js';

const strict = passwordStrengthSchema({ minLength: 8, mixedCase: true, special: true });
const plain = passwordStrengthSchema();

describe('passwordStrengthSchema', () => {
  it.each([
    [plain, 'abcdefghijkl', null],
    [plain, 'abcdefghijk', 'Must be at least 12 characters'],
    [plain, '', 'Required'],
    [plain, undefined, 'Required'],
    [strict, 'Abcdefg!', null],
    [strict, 'abcdefg!', 'Must contain both uppercase and lowercase letters'],
    [strict, 'ABCDEFG!', 'Must contain both uppercase and lowercase letters'],
    [strict, 'Abcdefgh', 'Must contain special characters, such as punctuation or symbols'],
    [strict, 'Ab!', 'Must be at least 8 characters'],
  ])('%#: %s', (schema, value, expected) => {
    expect(firstIssueMessage(schema, value)).toBe(expected);
  });

  it('reports every failing rule', () => {
    const r = strict.safeParse('abc');
    expect(r.success ? [] : r.error.issues.map((i) => i.message)).toEqual([
      'Must be at least 8 characters',
      'Must contain both uppercase and lowercase letters',
      'Must contain special characters, such as punctuation or symbols',
    ]);
  });
});
