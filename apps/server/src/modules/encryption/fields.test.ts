import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyRing, type MasterKey } from '../../providers/storage/key-ring.js';
import {
  blindIndex,
  decryptField,
  encryptField,
  fieldKeyId,
  isEncryptedField,
  reencryptField,
} from './fields.js';

const A: MasterKey = { id: 'a', key: randomBytes(32) };
const B: MasterKey = { id: 'b', key: randomBytes(32) };
const ring = new KeyRing([A], A.id);
const NIN = 'case_basic_details.nin';

describe('field encryption', () => {
  it('stores no plaintext, opens with the key only, in its own column only', () => {
    const stored = encryptField(ring, NIN, 'AB123456C');
    expect(isEncryptedField(stored)).toBe(true);
    expect(stored).not.toContain('AB123456C');
    expect(stored).not.toBe(encryptField(ring, NIN, 'AB123456C'));
    expect(fieldKeyId(stored)).toBe('a');
    expect(decryptField(ring, NIN, stored)).toBe('AB123456C');
    expect(() => decryptField(ring, 'case_passports.number', stored)).toThrow();
    expect(() =>
      decryptField(new KeyRing([{ id: 'a', key: randomBytes(32) }], 'a'), NIN, stored),
    ).toThrow();
    expect(() => decryptField(new KeyRing([B], B.id), NIN, stored)).toThrow('not configured');
    // the second-to-last character changed (a 1-in-64 flake when the last one was looked at)
    const tampered = `${stored.slice(0, -2)}${stored.at(-2) === 'A' ? 'B' : 'A'}${stored.slice(-1)}`;
    expect(() => decryptField(ring, NIN, tampered)).toThrow();
    // older plain values and blanks
    expect(decryptField(ring, NIN, 'AB123456C')).toBe('AB123456C');
    expect(encryptField(ring, NIN, '')).toBe('');
  });

  it('a rotation re-encrypts values under the new key; older ones still open meanwhile', () => {
    const stored = encryptField(ring, NIN, 'AB123456C');
    const rotated = new KeyRing([A, B], B.id);
    expect(decryptField(rotated, NIN, stored)).toBe('AB123456C');
    const next = reencryptField(rotated, NIN, stored);
    expect(next && fieldKeyId(next)).toBe('b');
    expect(decryptField(new KeyRing([B], B.id), NIN, next ?? '')).toBe('AB123456C');
    expect(reencryptField(rotated, NIN, next ?? '')).toBeNull();
    expect(fieldKeyId(reencryptField(rotated, NIN, 'AB123456C') ?? '')).toBe('b');
  });

  it('finds a value by exact match through its keyed hash, whatever the spacing and case', () => {
    const key = randomBytes(32);
    const h = blindIndex(key, NIN, 'AB123456C');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(blindIndex(key, NIN, 'ab 12 34 56 c')).toBe(h);
    expect(blindIndex(key, NIN, 'AB123456D')).not.toBe(h);
    expect(blindIndex(key, 'case_passports.number', 'AB123456C')).not.toBe(h);
    expect(blindIndex(randomBytes(32), NIN, 'AB123456C')).not.toBe(h);
    expect(blindIndex(key, NIN, '  ')).toBe('');
  });
});
