import { describe, expect, it } from 'vitest';
import {
  actorNameText,
  auditActorName,
  auditObjectText,
  codeInWords,
  contentTypeName,
  subjectAccountText,
} from './audit-words.js';

describe('the audit log in words', () => {
  it('object types', () => {
    expect(contentTypeName('users.productuser')).toBe('User');
    expect(contentTypeName('cases.caseactivity')).toBe('Check');
    // issue 34's: erasure requests, a case's retention (legal hold), redacted documents
    expect(contentTypeName('data_requests.erasurerequest')).toBe('Erasure request');
    expect(contentTypeName('retention.caseretention')).toBe('Case retention');
    expect(contentTypeName('cases.casedocument')).toBe('Document');
    expect(contentTypeName('billing.price_book')).toBe('Price book');
    expect(contentTypeName('noseparator')).toBe('Noseparator');
    expect(contentTypeName('')).toBe('');
  });

  it('actions', () => {
    expect(codeInWords('logged_in')).toBe('Logged in');
    expect(codeInWords('PDF_generated')).toBe('Pdf generated');
  });

  it('objects', () => {
    expect(auditObjectText('users.productuser', '2')).toBe('User #2');
    expect(auditObjectText('flags.flag', null)).toBe('Flag');
    expect(auditObjectText('', '7')).toBe('#7');
    expect(auditObjectText('', null)).toBe('');
  });

  it("a subject's account, in the same words everywhere", () => {
    expect(subjectAccountText(true)).toBe('Has account');
    expect(subjectAccountText(false)).toBe('No account yet');
  });

  it("actors: the system is 'System'", () => {
    expect(auditActorName('system', null)).toBe('System');
    expect(auditActorName('system', 'ProductUser')).toBe('System');
    expect(auditActorName('  ', 'ProductUser')).toBe('System');
    expect(auditActorName('Ann Lee', 'ProductUser')).toBe('Ann Lee');
    expect(actorNameText(null)).toBe('System');
    expect(actorNameText('Ann Lee')).toBe('Ann Lee');
  });
});
