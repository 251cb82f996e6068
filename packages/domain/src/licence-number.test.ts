import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkDrivingLicenceNumber,
  dobPart,
  type LicencePerson,
  licenceNumberReference,
} from './licence-number.js';

const john: LicencePerson = {
  forename: 'John',
  middlename: 'Alan',
  surname: 'Smith',
  dob: '1985-07-14',
};

describe('licenceNumberReference', () => {
  it.each<[string, LicencePerson, string]>([
    ['plain', john, 'SMITH807145JA9AA'],
    ['no middle name pads 9', { ...john, middlename: '' }, 'SMITH807145J99AA'],
    ['short surname pads 9', { ...john, surname: 'Ng' }, 'NG999807145JA9AA'],
    ['Mac becomes Mc', { ...john, surname: 'MacDonald' }, 'MCDON807145JA9AA'],
    ['Mc stays Mc', { ...john, surname: 'McDonald' }, 'MCDON807145JA9AA'],
    ['accents and punctuation', { ...john, surname: "D'Ávila-Ñu" }, 'DAVIL807145JA9AA'],
    [
      'dbs names preferred',
      { ...john, surname_dbs: 'Jones', forename_dbs: 'Peter' },
      'JONES807145PA9AA',
    ],
    [
      'no surname uses forename, 99',
      { ...john, surname: '', no_surname: true },
      'JOHN9807145999AA',
    ],
    ['no_surname flag wins', { ...john, no_surname: true }, 'JOHN9807145999AA'],
    ['December 2000', { ...john, dob: '2000-12-01' }, 'SMITH012010JA9AA'],
  ])('%s', (_name, person, expected) => {
    expect(licenceNumberReference(person)).toBe(expected);
  });

  it('encodes the female month variant', () => {
    expect(dobPart('1985-07-14', true)).toBe('857145');
    expect(dobPart('1985-12-14', true)).toBe('862145');
  });

  it('derives a woman’s number with her month + 50, a man’s or an unknown gender’s as is', () => {
    const jane = { ...john, forename: 'Jane', gender: 'female' };
    expect(licenceNumberReference(jane)).toBe('SMITH857145JA9AA');
    expect(licenceNumberReference({ ...jane, dob: '1990-12-01' })).toBe('SMITH962010JA9AA');
    expect(licenceNumberReference({ ...john, gender: 'male' })).toBe('SMITH807145JA9AA');
    expect(licenceNumberReference({ ...john, gender: null })).toBe('SMITH807145JA9AA');
    // a woman's derived number passes the check, and its month block reads female
    expect(checkDrivingLicenceNumber(licenceNumberReference(jane), jane)).toBeNull();
    expect(licenceNumberReference(jane).charAt(6)).toBe('5');
  });
});

describe('checkDrivingLicenceNumber', () => {
  it.each<[string, string, LicencePerson, string | null]>([
    ['16 characters', 'SMITH807145JA9AA', john, null],
    ['18 characters', 'SMITH807145JA9AA01', john, null],
    ['lower case and spaces', 'smith 807145 ja9aa', john, null],
    ['female month', 'SMITH857145JA9AA', john, null],
    ['8 digits', '12345678', john, null],
    ['no surname 99', 'JOHN9807145999AA', { ...john, surname: '', no_surname: true }, null],
    ['Mac as Mc', 'MCDON807145JA9AA', { ...john, surname: 'Macdonald' }, null],
    ['surname mismatch', 'JONES807145JA9AA', john, 'Surname mismatch'],
    [
      'Mac not accepted verbatim',
      'MACDO807145JA9AA',
      { ...john, surname: 'Macdonald' },
      'Surname mismatch',
    ],
    ['dob mismatch', 'SMITH807155JA9AA', john, 'Date of birth mismatch'],
    ['month +1 is not female', 'SMITH817145JA9AA', john, 'Date of birth mismatch'],
    ['initials mismatch', 'SMITH807145JB9AA', john, 'Forename/middlename initials mismatch'],
    [
      'missing middle initial must be 9',
      'SMITH807145JA9AA',
      { ...john, middlename: null },
      'Forename/middlename initials mismatch',
    ],
    ['15 characters', 'SMITH807145JA9A', john, 'Missing digits'],
    ['only the surname', 'SMITH', john, 'Missing digits'],
    ['cut inside the date', 'SMITH8071', john, 'Missing digits'],
    ['cut inside the initials', 'SMITH807145J', john, 'Missing digits'],
    ['3 characters', 'SMI', john, 'Missing digits'],
    ['19 characters', 'SMITH807145JA9AA012', john, 'Too long'],
    ['no date of birth', 'SMITH807145JA9AA', { ...john, dob: null }, 'Date of birth mismatch'],
  ])('%s', (_name, number, person, expected) => {
    expect(checkDrivingLicenceNumber(number, person)).toBe(expected);
  });
});

const nameArb = fc.stringMatching(/^[A-Z][a-z]{0,9}$/);
const personArb = fc.record({
  forename: nameArb,
  middlename: fc.option(nameArb, { nil: '' }),
  surname: fc.option(nameArb, { nil: '' }),
  no_surname: fc.boolean(),
  dob: fc
    .date({ min: new Date('1900-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
});

describe('licence number properties', () => {
  it('a number derived from a person passes the check for that person', () => {
    fc.assert(
      fc.property(personArb, (person) => {
        expect(checkDrivingLicenceNumber(licenceNumberReference(person), person)).toBeNull();
      }),
    );
  });

  it('changing one part gives that part’s message', () => {
    const replaceAt = (s: string, i: number, c: string) => s.slice(0, i) + c + s.slice(i + 1);
    fc.assert(
      fc.property(personArb, fc.nat(), (person, n) => {
        const ref = licenceNumberReference(person);
        const surnameIndex = n % 5;
        const orig = ref.charAt(surnameIndex);
        const other = orig === 'Q' ? 'X' : 'Q';
        expect(checkDrivingLicenceNumber(replaceAt(ref, surnameIndex, other), person)).toBe(
          'Surname mismatch',
        );
        // Day tens digit: 4..9 never occur in a real day, so always a mismatch.
        expect(checkDrivingLicenceNumber(replaceAt(ref, 8, '9'), person)).toBe(
          'Date of birth mismatch',
        );
        const initialIndex = 11 + (n % 2);
        const initial = ref.charAt(initialIndex) === '8' ? '7' : '8';
        expect(checkDrivingLicenceNumber(replaceAt(ref, initialIndex, initial), person)).toBe(
          'Forename/middlename initials mismatch',
        );
        expect(checkDrivingLicenceNumber(ref.slice(0, 13 + (n % 3)), person)).toBe(
          'Missing digits',
        );
        expect(checkDrivingLicenceNumber(`${ref}XYZ`, person)).toBe('Too long');
      }),
    );
  });
});
