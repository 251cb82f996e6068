import { describe, expect, it } from 'vitest';
import { firstIssueMessage, issuesByField } from './first-message.js';
import {
  canSaveNotes,
  davisEmailSchema,
  dbsEnhancedProviderSchema,
  knowledgeTestResultSchema,
  notesSchema,
} from './ops-forms.js';

describe('notes', () => {
  it.each([
    ['', null],
    ['x'.repeat(400), null],
    ['x'.repeat(401), 'Max length 400'],
    [undefined, 'Required'],
  ])('%#', (value, expected) => {
    expect(firstIssueMessage(notesSchema, value)).toBe(expected);
  });

  it('disables save over 400', () => {
    expect(canSaveNotes('x'.repeat(400))).toBe(true);
    expect(canSaveNotes('x'.repeat(401))).toBe(false);
  });
});

describe('Davis email', () => {
  it.each([
    [{ email: '' }, 'Required'],
    [{ email: 'davis' }, 'Invalid email'],
    [{ email: 'davis@example.com' }, null],
  ])('%o', (value, expected) => {
    expect(firstIssueMessage(davisEmailSchema, value)).toBe(expected);
  });
});

describe('DBS enhanced provider form', () => {
  const valid = {
    forename: 'Ann',
    surname: 'Lee',
    email: 'ann@example.com',
    manager_forename: 'Bob',
    manager_surname: 'Ray',
    manager_email: 'bob@example.com',
    position: 'Manager',
    id_verifier_username: 'idv01',
    email_group: 'dbs@example.com',
  };

  it('accepts a complete form', () => {
    expect(dbsEnhancedProviderSchema.safeParse(valid).success).toBe(true);
  });

  it('requires every field and valid emails', () => {
    const r = dbsEnhancedProviderSchema.safeParse({ ...valid, manager_email: 'x', position: '' });
    expect(r.success ? {} : issuesByField(r.error)).toEqual({
      manager_email: ['Invalid email'],
      position: ['Required'],
    });
    const empty = dbsEnhancedProviderSchema.safeParse({});
    expect(empty.success ? [] : Object.keys(issuesByField(empty.error))).toHaveLength(9);
  });
});

describe('knowledge test result', () => {
  it('is pass or fail', () => {
    expect(firstIssueMessage(knowledgeTestResultSchema, { result: 'pass' })).toBeNull();
    expect(firstIssueMessage(knowledgeTestResultSchema, {})).toBe('Required');
  });
});
