import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { firstIssueMessage } from './first-message.js';
import {
  confirmationSchema,
  emailSchema,
  forenameSchema,
  freeTextSchema,
  middlenameSchema,
  nameFieldSchema,
  niNumberSchema,
  optionalEmailSchema,
  optionalNiNumberSchema,
  phoneSchema,
  referenceSchema,
  requiredFreeTextSchema,
  requiredShortFreeTextSchema,
  surnameSchema,
  townSchema,
  upperReferenceSchema,
} from './text-rules.js';

const firstMessage = firstIssueMessage;

type Row = [string, z.ZodType, unknown, string | null];
const long = (n: number) => 'a'.repeat(n);

const rows: Row[] = [
  ['forename ok', forenameSchema, 'Mary-Jane', null],
  ['forename apostrophe', forenameSchema, "O'Neil", null],
  ['forename accent', forenameSchema, 'Zoë', null],
  ['forename inner space', forenameSchema, ' Anne Marie ', null],
  ['forename single letter', forenameSchema, 'J', null],
  ['forename empty', forenameSchema, '', 'Required'],
  ['forename blank', forenameSchema, '   ', 'Required'],
  ['forename undefined', forenameSchema, undefined, 'Required'],
  ['forename digits', forenameSchema, 'J0hn', 'Contains invalid characters'],
  ['forename leading hyphen', forenameSchema, '-John', 'Contains invalid characters'],
  ['forename trailing apostrophe', forenameSchema, "John'", 'Contains invalid characters'],
  ['forename 60', forenameSchema, long(60), null],
  ['forename 61', forenameSchema, long(61), 'Max 60 characters'],
  ['surname 50', surnameSchema, long(50), null],
  ['surname 51', surnameSchema, long(51), 'Max 50 characters'],
  ['surname dot', surnameSchema, 'St. John', 'Contains invalid characters'],
  ['surname null', surnameSchema, null, 'Required'],
  ['middlename empty', middlenameSchema, '', null],
  ['middlename null', middlenameSchema, null, null],
  ['middlename bad', middlenameSchema, 'J.', 'Contains invalid characters'],
  ['name field 100', nameFieldSchema, long(100), null],
  ['name field 101', nameFieldSchema, long(101), 'Max 100 characters'],
  ['email ok', emailSchema, 'a.b+c@example.co.uk', null],
  ['email tld 4', emailSchema, 'a@b.info', null],
  ['email tld 5', emailSchema, 'a@b.london', 'Invalid email'],
  ['email tld 1', emailSchema, 'a@b.c', 'Invalid email'],
  ['email no at', emailSchema, 'ab.com', 'Invalid email'],
  ['email empty', emailSchema, '', 'Required'],
  ['email 101', emailSchema, `${long(95)}@b.com`, 'Max 100 characters'],
  ['optional email empty', optionalEmailSchema, '', null],
  ['optional email bad', optionalEmailSchema, 'x@y', 'Invalid email'],
  ['free text ok', freeTextSchema, 'Flat 2/3 (rear) & Co-op', null],
  ['free text empty', freeTextSchema, '', null],
  ['free text dot', freeTextSchema, 'Co.', 'Contains invalid characters'],
  ['free text 61', freeTextSchema, long(61), 'Max 60 characters'],
  ['required free text empty', requiredFreeTextSchema, '', 'Required'],
  ['required free text ok', requiredFreeTextSchema, 'Driver 1', null],
  ['short free text 31', requiredShortFreeTextSchema, long(31), 'Max 30 characters'],
  ['short free text 30', requiredShortFreeTextSchema, long(30), null],
  ['town ok', townSchema, 'Stratford-upon-Avon', null],
  ['town comma', townSchema, 'Leeds, West', 'Contains invalid characters'],
  ['town empty', townSchema, '', 'Required'],
  ['upper ref ok', upperReferenceSchema, 'AB-12/3', null],
  ['upper ref empty', upperReferenceSchema, '', null],
  ['upper ref lower', upperReferenceSchema, 'ab12', 'Invalid format'],
  ['upper ref 31', upperReferenceSchema, 'A'.repeat(31), 'Max 30 characters'],
  ['ni ok', niNumberSchema, 'AB123456C', null],
  ['ni lower with spaces', niNumberSchema, 'ab 12 34 56 c', null],
  ['ni empty', niNumberSchema, '', 'Required'],
  ['ni bad suffix', niNumberSchema, 'AB123456E', 'Invalid number'],
  ['ni first D', niNumberSchema, 'DA123456A', 'Invalid number'],
  ['ni second O', niNumberSchema, 'AO123456A', 'Invalid number'],
  ['ni prefix GB', niNumberSchema, 'GB123456A', 'Invalid number'],
  ['ni prefix ZZ', niNumberSchema, 'ZZ123456A', 'Invalid number'],
  ['ni five digits', niNumberSchema, 'AB12345A', 'Invalid number'],
  ['optional ni empty', optionalNiNumberSchema, '', null],
  ['optional ni bad', optionalNiNumberSchema, 'QQ123456A', 'Invalid number'],
  ['reference ok', referenceSchema, 'E12345678', null],
  ['reference lower', referenceSchema, 'e123', 'Invalid number'],
  ['reference 12', referenceSchema, 'A'.repeat(12), 'Max 11 characters'],
  ['phone national GB', phoneSchema, '020 7946 0958', null],
  ['phone international', phoneSchema, '+33 1 42 68 53 00', null],
  ['phone short', phoneSchema, '+44 7911 12345', 'Invalid number'],
  ['phone empty', phoneSchema, '', 'Required'],
  ['confirm true', confirmationSchema, true, null],
  ['confirm false', confirmationSchema, false, 'Please confirm'],
];

describe('text rule sets', () => {
  it.each(rows)('%s', (_name, schema, value, expected) => {
    expect(firstMessage(schema, value)).toBe(expected);
  });

  it('trims and uppercases', () => {
    expect(forenameSchema.parse('  Ann ')).toBe('Ann');
    expect(niNumberSchema.parse(' ab123456c ')).toBe('AB123456C');
    expect(middlenameSchema.parse('  ')).toBeUndefined();
  });
});
