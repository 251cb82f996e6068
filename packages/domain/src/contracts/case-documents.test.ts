import { describe, expect, it } from 'vitest';
import {
  CASE_DOCUMENT_TYPES,
  caseDocumentCreate,
  caseDocumentDownloadQuery,
  caseDocumentListQuery,
  caseDocumentReplace,
  caseDocumentType,
  confirmationsProblem,
  DOCUMENT_MESSAGES,
} from './case-documents.js';

const issues = (r: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('case document contracts', () => {
  it('lists each document type once, found by its code with its group', () => {
    const codes = CASE_DOCUMENT_TYPES.map((t) => t.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(caseDocumentType('passport')).toMatchObject({ name: 'Passport', group: '1' });
    expect(caseDocumentType('p45')?.code).toBe('p45');
    expect(caseDocumentType('spaceship')).toBeUndefined();
  });

  it('parses the upload form: ids, optional fields left blank, a known type', () => {
    expect(
      caseDocumentCreate.parse({
        case: ' 12 ',
        case_activity: '',
        document_type: 'passport',
        collector: '',
        route_index: '2',
      }),
    ).toEqual({ case: 12, document_type: 'passport', route_index: 2 });
    expect(
      issues(
        caseDocumentCreate.safeParse({
          case: '0',
          document_type: 'spaceship',
          collector: 'x'.repeat(101),
          route_index: 'one',
        }),
      ),
    ).toEqual({
      case: 'Invalid pk - object does not exist.',
      document_type: DOCUMENT_MESSAGES.unknownDocumentType,
      collector: 'Ensure this field has no more than 100 characters.',
      route_index: 'A valid integer is required.',
    });
    expect(issues(caseDocumentCreate.safeParse({}))).toMatchObject({ case: 'Required' });
    expect(caseDocumentReplace.parse({})).toEqual({});
  });

  it('reads list and download queries', () => {
    expect(caseDocumentListQuery.parse({ case: '3', page: '2', page_size: '' })).toEqual({
      case: 3,
      page: 2,
    });
    expect(issues(caseDocumentListQuery.safeParse({ case: '3', page: '0' }))).toEqual({
      page: 'Invalid page.',
    });
    expect(caseDocumentDownloadQuery.parse({ inline: 'true', page: '2' })).toEqual({
      inline: 'true',
      page: 2,
    });
    expect(caseDocumentDownloadQuery.safeParse({ inline: 'yes' }).success).toBe(false);
  });

  it('words the size and page limits with their numbers', () => {
    expect(DOCUMENT_MESSAGES.tooLarge(25 * 1024 * 1024)).toBe(
      'The file is too large: upload a file of at most 25 MB.',
    );
    expect(DOCUMENT_MESSAGES.tooManyPages(10)).toBe('A document may have at most 10 pages.');
  });
  it('reads the confirmations as ids without repeats, and checks them against the type', () => {
    const parsed = caseDocumentCreate.parse({
      case: '1',
      document_type: 'passport',
      confirmations: ' original, in-date,,original ',
    });
    expect(parsed.confirmations).toEqual(['original', 'in-date']);
    expect(caseDocumentCreate.parse({ case: '1', document_type: 'passport' }).confirmations).toBe(
      undefined,
    );
    expect(caseDocumentReplace.parse({ confirmations: '' }).confirmations).toEqual([]);
    const all = (caseDocumentType('passport')?.questions ?? []).map((q) => q.id);
    expect(confirmationsProblem('passport', all)).toBeNull();
    expect(confirmationsProblem('passport', all.slice(1))).toBe('Please confirm');
    expect(confirmationsProblem('passport', [...all, 'nope'])).toBe(
      DOCUMENT_MESSAGES.unknownQuestion,
    );
    expect(confirmationsProblem('spaceship', all)).toBe(DOCUMENT_MESSAGES.unknownDocumentType);
  });
});
