import { z } from 'zod';
import { MESSAGES } from './messages.js';

/** One yes/no confirmation the checker must answer 'yes' to accept a document. */
export interface DocumentQuestion {
  id: string;
  text: string;
}

export interface EligibleDocumentType {
  code: string;
  name: string;
  /** The list's grouping (identity check: '1', '2a', '2b'; right to work: 'A', 'B1', 'B2', 'online', 'support'). */
  group: string;
  questions: readonly DocumentQuestion[];
}

/** Document age limits (spec point 9). */
export const DOCUMENT_AGE_LIMITS = {
  recentMonths: 3,
  standardMonths: 12,
  birthCertificateWithinMonthsOfBirth: 12,
  brpExpiredMonths: 18,
  passportExpiredMonths: 6,
  headTeacherLetterMinAge: 16,
  headTeacherLetterMaxAge: 19,
  paperLicenceIssuedBeforeYear: 1998,
} as const;

/** Questions shared by many document types. */
export const COMMON_QUESTIONS = {
  original: {
    id: 'original',
    text: 'Is this the original document (not a photocopy, printout or screenshot)?',
  },
  photoMatches: {
    id: 'photo-matches',
    text: 'Does the photograph look like the subject?',
  },
  nameMatches: {
    id: 'name-matches',
    text: 'Does the name on the document match the name the subject has given?',
  },
  addressMatches: {
    id: 'address-matches',
    text: 'Does the address on the document match the subject’s current address?',
  },
  notTampered: {
    id: 'not-tampered',
    text: 'Is the document free of any sign of tampering or alteration?',
  },
  inDate: { id: 'in-date', text: 'Is the document in date (not expired)?' },
  ukIssued: { id: 'uk-issued', text: 'Was the document issued in the UK?' },
  within3Months: {
    id: 'within-3-months',
    text: 'Is the document dated within the last 3 months?',
  },
  within12Months: {
    id: 'within-12-months',
    text: 'Is the document dated within the last 12 months?',
  },
  notOnline: {
    id: 'not-online',
    text: 'Is it a paper statement, or a printed e-statement with the issuer’s details (not a screenshot of an online account)?',
  },
} as const satisfies Record<string, DocumentQuestion>;

/** Shorthand for a question that only one document type asks. */
export const ask = (id: string, text: string): DocumentQuestion => ({ id, text });

/** True when every question of the type was answered 'yes'. */
export function isDocumentConfirmed(
  type: EligibleDocumentType,
  answers: Readonly<Record<string, boolean | undefined>>,
): boolean {
  return type.questions.every((q) => answers[q.id] === true);
}

/** A schema of the type's confirmations: each must be ticked ('Please confirm'). */
export function documentConfirmationSchema(type: EligibleDocumentType) {
  const shape: Record<string, z.ZodLiteral<true>> = {};
  for (const q of type.questions) shape[q.id] = z.literal(true, { error: MESSAGES.pleaseConfirm });
  return z.object(shape);
}

/** The document type with this code in a list, or `undefined`. */
export function findDocumentType(
  list: readonly EligibleDocumentType[],
  code: string,
): EligibleDocumentType | undefined {
  return list.find((t) => t.code === code);
}
