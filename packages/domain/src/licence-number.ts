import { MESSAGES } from './messages.js';

/** The person fields the licence-number rules read (spec point 3). */
export interface LicencePerson {
  forename?: string | null;
  middlename?: string | null;
  surname?: string | null;
  forename_dbs?: string | null;
  surname_dbs?: string | null;
  /** 'YYYY-MM-DD'; a missing date of birth never matches. */
  dob: string | null | undefined;
  no_surname?: boolean | null;
  /** 'female' derives the female month variant (month + 50); anything else the month as is. */
  gender?: string | null;
}

export const LICENCE_NUMBER_MAX_LENGTH = 18;
export const LICENCE_NUMBER_MIN_LENGTH = 16;
/**
 * What follows the 13 derived characters in a reference: the arbitrary digit '9' and two check
 * characters 'AA'. Real licences carry the DVLA's own check characters here, which cannot be
 * derived, so the reference is only ever compared on its first 13 characters.
 */
export const LICENCE_REFERENCE_SUFFIX = '9AA';

/** Upper-case A-Z letters only, with accents removed. */
function letters(value: string | null | undefined): string {
  return (value ?? '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z]/g, '');
}

function hasSurname(person: LicencePerson): boolean {
  return !person.no_surname && letters(person.surname_dbs || person.surname) !== '';
}

/** Characters 1-5: the surname (or the forename when there is none), Mac as Mc, 9-padded. */
export function surnamePart(person: LicencePerson): string {
  const name = hasSurname(person)
    ? letters(person.surname_dbs || person.surname)
    : letters(person.forename_dbs || person.forename);
  return name.replace(/^MAC/, 'MC').slice(0, 5).padEnd(5, '9');
}

/** Characters 6-11: decade digit, month, day, year digit; `female` adds 5 to the month's tens. */
export function dobPart(dob: string | null | undefined, female = false): string {
  const [, decade = '', year = '', month = '', day = ''] =
    /^\d\d(\d)(\d)-(\d\d)-(\d\d)$/.exec(dob ?? '') ?? [];
  const tens = Number(month.charAt(0)) + (female ? 5 : 0);
  return `${decade}${tens}${month.charAt(1)}${day}${year}`;
}

/** Characters 12-13: forename and middle-name initials, 9 for a missing one; 99 without surname. */
export function initialsPart(person: LicencePerson): string {
  if (!hasSurname(person)) return '99';
  const first = letters(person.forename_dbs || person.forename).charAt(0) || '9';
  const middle = letters(person.middlename).charAt(0) || '9';
  return first + middle;
}

/**
 * The licence number reference derived from a person (spec point 9): a woman's date block has
 * 5 added to the month's first digit, as the DVLA encodes it.
 */
export function licenceNumberReference(person: LicencePerson): string {
  const female = person.gender === 'female';
  return `${surnamePart(person)}${dobPart(person.dob, female)}${initialsPart(person)}${LICENCE_REFERENCE_SUFFIX}`;
}

/**
 * `null` when a UK licence number fits the person, else the spec's message. Exactly 8 digits
 * (an old Northern Ireland number) is accepted as is. Parts are compared in order; when the
 * number ends before a part is complete, the answer is 'Missing digits'.
 */
export function checkDrivingLicenceNumber(number: string, person: LicencePerson): string | null {
  const value = number.replace(/\s+/g, '').toUpperCase();
  if (/^\d{8}$/.test(value)) return null;
  if (value.length > LICENCE_NUMBER_MAX_LENGTH) return MESSAGES.tooLong;
  if (value.length < 5) return MESSAGES.missingDigits;
  if (value.slice(0, 5) !== surnamePart(person)) return MESSAGES.surnameMismatch;
  if (value.length < 11) return MESSAGES.missingDigits;
  const dob = value.slice(5, 11);
  if (dob !== dobPart(person.dob) && dob !== dobPart(person.dob, true)) return MESSAGES.dobMismatch;
  if (value.length < 13) return MESSAGES.missingDigits;
  if (value.slice(11, 13) !== initialsPart(person)) return MESSAGES.initialsMismatch;
  if (value.length < LICENCE_NUMBER_MIN_LENGTH) return MESSAGES.missingDigits;
  return null;
}
