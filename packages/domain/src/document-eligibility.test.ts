import { describe, expect, it } from 'vitest';
import {
  COMMON_QUESTIONS,
  DOCUMENT_AGE_LIMITS,
  documentConfirmationSchema,
  documentQuestionText,
  type EligibleDocumentType,
  findDocumentType,
  isDocumentConfirmed,
} from './document-eligibility.js';
import { firstIssueMessage } from './first-message.js';
import { IDENTITY_DOCUMENT_TYPES } from './identity-documents.js';
import { RTW_DOCUMENT_TYPES } from './rtw-documents.js';
import { RTW_SUPPORTING_DOCUMENT_TYPES } from './rtw-supporting-documents.js';

describe.each([
  ['identity-check list', IDENTITY_DOCUMENT_TYPES],
  ['right-to-work list', RTW_DOCUMENT_TYPES],
] as const)('%s', (_name, list: readonly EligibleDocumentType[]) => {
  it('holds about 30 document types with unique codes', () => {
    expect(list.length).toBeGreaterThanOrEqual(28);
    expect(new Set(list.map((t) => t.code)).size).toBe(list.length);
  });

  it('asks at least two clear yes/no questions per type, each once', () => {
    for (const type of list) {
      expect(type.questions.length, type.code).toBeGreaterThanOrEqual(2);
      expect(new Set(type.questions.map((q) => q.id)).size, type.code).toBe(type.questions.length);
      for (const q of type.questions) expect(q.text, q.id).toMatch(/^(Is|Does|Was|Has) .+\?$/);
    }
  });
});

describe('document lists', () => {
  it('covers the kinds the spec names', () => {
    const identity = IDENTITY_DOCUMENT_TYPES.map((t) => t.code);
    for (const code of [
      'passport',
      'biometric-residence-permit',
      'e-visa',
      'utility-bill',
      'bank-statement',
      'adoption-certificate',
      'paper-driving-licence',
    ]) {
      expect(identity).toContain(code);
    }
    const rtw = RTW_DOCUMENT_TYPES.map((t) => t.code);
    for (const code of [
      'british-passport',
      'biometric-residence-permit',
      'e-visa',
      'uk-birth-certificate',
    ]) {
      expect(rtw).toContain(code);
    }
  });

  it('asks the age-limit questions', () => {
    const texts = (code: string) =>
      findDocumentType(IDENTITY_DOCUMENT_TYPES, code)
        ?.questions.map((q) => q.text)
        .join(' ');
    expect(texts('bank-statement')).toMatch(/last 3 months/);
    expect(texts('bank-statement')).toMatch(/not a screenshot/);
    expect(texts('p45-p60')).toMatch(/last 12 months/);
    expect(texts('birth-certificate-at-birth')).toMatch(/within 12 months of the date of birth/);
    expect(texts('biometric-residence-permit')).toMatch(/18 months/);
    expect(texts('head-teacher-letter')).toMatch(/16 to 19/);
    expect(texts('paper-driving-licence')).toMatch(/before 1998/);
    expect(DOCUMENT_AGE_LIMITS.passportExpiredMonths).toBe(6);
  });
});

describe('confirmations', () => {
  const passport = findDocumentType(IDENTITY_DOCUMENT_TYPES, 'passport');
  if (!passport) throw new Error('passport missing');
  const yes = Object.fromEntries(passport.questions.map((q) => [q.id, true]));

  it('needs every question answered yes', () => {
    expect(isDocumentConfirmed(passport, yes)).toBe(true);
    expect(isDocumentConfirmed(passport, { ...yes, 'in-date': false })).toBe(false);
    expect(isDocumentConfirmed(passport, {})).toBe(false);
  });

  it("shows 'Please confirm' for an unticked confirmation", () => {
    const schema = documentConfirmationSchema(passport);
    expect(firstIssueMessage(schema, yes)).toBeNull();
    expect(firstIssueMessage(schema, { ...yes, original: false })).toBe('Please confirm');
  });

  it('finds nothing for an unknown code', () => {
    expect(findDocumentType(RTW_DOCUMENT_TYPES, 'nope')).toBeUndefined();
  });
});

describe('documentQuestionText: each question worded for who answers it', () => {
  const every = [
    ...IDENTITY_DOCUMENT_TYPES,
    ...RTW_DOCUMENT_TYPES,
    ...RTW_SUPPORTING_DOCUMENT_TYPES,
  ].flatMap((t) => t.questions);

  it('asks the person about themself, and staff about the subject', () => {
    expect(documentQuestionText(COMMON_QUESTIONS.photoMatches, 'self')).toBe(
      'Does the photograph look like you?',
    );
    expect(documentQuestionText(COMMON_QUESTIONS.photoMatches, 'staff')).toBe(
      'Does the photograph look like the subject?',
    );
    expect(documentQuestionText(COMMON_QUESTIONS.nameMatches, 'self')).toBe(
      'Does the name on the document match the name you have given?',
    );
  });

  it('never speaks of "the subject" or "the holder" to the person themself', () => {
    for (const q of every) {
      const self = documentQuestionText(q, 'self');
      expect(self, q.id).not.toMatch(/\bsubject|\bholder/i);
      expect(self, q.id).toMatch(/^(Is|Does|Was|Has|Are|Do|Were|Have) .+\?$/);
    }
  });

  it('keeps the staff wording about the subject', () => {
    for (const q of every) {
      expect(documentQuestionText(q, 'staff'), q.id).toBe(q.text);
      expect(q.text, q.id).not.toMatch(/\byou\b|\byour\b/i);
    }
  });
});
