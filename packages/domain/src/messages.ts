/** The validation texts of spec point 5, literal. Forms and the server show exactly these. */
export const MESSAGES = {
  required: 'Required',
  invalidEmail: 'Invalid email',
  invalidNumber: 'Invalid number',
  invalidFormat: 'Invalid format',
  invalidCharacters: 'Contains invalid characters',
  pleaseConfirm: 'Please confirm',
  notesMaxLength: 'Max length 400',
  postcodeLookupMin: 'Min 5 characters',
  toBeforeFrom: 'To date cannot be before from date.',
  missingAddressInformation: 'Missing address information',
  mixedCase: 'Must contain both uppercase and lowercase letters',
  specialCharacters: 'Must contain special characters, such as punctuation or symbols',
  commonPassword:
    'This password is too common: it appears in lists of breached passwords. Choose another.',
  surnameMismatch: 'Surname mismatch',
  dobMismatch: 'Date of birth mismatch',
  initialsMismatch: 'Forename/middlename initials mismatch',
  missingDigits: 'Missing digits',
  tooLong: 'Too long',
  // Not given by the spec: our own wording for a date outside the allowed range.
  dateOutOfRange: 'Date out of range',
  invalidDate: 'Invalid date',
  // Our own wording: a field or record that the online identity check provided is locked.
  idspLocked: 'Provided by the online identity check: it cannot be changed.',
  idspLockedDelete: 'Provided by the online identity check: it cannot be deleted.',
  // Our own wording: the history has at most one current address (the one without an end date).
  oneCurrentAddress: 'There is already a current address.',
} as const;

/** 'Max N characters'. */
export function maxCharacters(n: number): string {
  return `Max ${n} characters`;
}

/** 'Must be at least N characters' (password strength). */
export function minCharacters(n: number): string {
  return `Must be at least ${n} characters`;
}
