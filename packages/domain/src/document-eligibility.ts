import { z } from 'zod';
import { MESSAGES } from './messages.js';

/**
 * One yes/no confirmation that must be answered 'yes' to accept a document: `text` as staff
 * verifying the document are asked it (about the subject), `self` as the person answers it about
 * themself in the portal when that wording differs (see `documentQuestionText`).
 */
export interface DocumentQuestion {
  id: string;
  text: string;
  self?: string;
}

/** Who answers a document question: the person about themself, or staff about the subject. */
export type DocumentQuestionAudience = 'self' | 'staff';

/** The question worded for who answers it (one home for both wordings). */
export function documentQuestionText(q: DocumentQuestion, who: DocumentQuestionAudience): string {
  return who === 'self' ? (q.self ?? q.text) : q.text;
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
    self: 'Does the photograph look like you?',
  },
  nameMatches: {
    id: 'name-matches',
    text: 'Does the name on the document match the name the subject has given?',
    self: 'Does the name on the document match the name you have given?',
  },
  addressMatches: {
    id: 'address-matches',
    text: 'Does the address on the document match the subject’s current address?',
    self: 'Does the address on the document match your current address?',
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

/**
 * Shorthand for a question that only one document type asks: its staff wording, and the
 * person's own when it speaks of the subject.
 */
export const ask = (id: string, text: string, self?: string): DocumentQuestion =>
  self === undefined ? { id, text } : { id, text, self };

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
