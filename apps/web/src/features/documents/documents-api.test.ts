import { DOCUMENT_MESSAGES } from '@kestrel/domain';
import { describe, expect, it } from 'vitest';
import { collectorsForActivities } from './collectors';
import { checkFile, DEFAULT_MAX_UPLOAD_BYTES, uploadErrorText, uploadForm } from './documents-api';

const file = (name: string, type: string, size = 10) =>
  new File([new Uint8Array(size)], name, { type });

describe('documents API helpers', () => {
  it('accepts JPEG, PNG, HEIC and PDF (by type or name) and refuses the rest in the spec words', () => {
    expect(checkFile(file('a.jpg', 'image/jpeg'))).toBeNull();
    expect(checkFile(file('IMG_1.HEIC', ''))).toBeNull();
    expect(checkFile(file('scan', 'application/pdf'))).toBeNull();
    expect(checkFile(file('a.gif', 'image/gif'))).toBe(DOCUMENT_MESSAGES.unsupportedType);
    expect(checkFile(file('a.png', 'image/png', 2048), 1024)).toBe(
      DOCUMENT_MESSAGES.tooLarge(1024),
    );
    expect(checkFile(file('a.png', 'image/png', 0))).toBe(DOCUMENT_MESSAGES.unreadableImage);
  });

  it('words a 413 without a body as too large, and prefers the server words', () => {
    expect(uploadErrorText({ status: 413, data: {} })).toBe(
      DOCUMENT_MESSAGES.tooLarge(DEFAULT_MAX_UPLOAD_BYTES),
    );
    expect(
      uploadErrorText({ status: 400, data: { file: [DOCUMENT_MESSAGES.unsupportedType] } }),
    ).toBe(DOCUMENT_MESSAGES.unsupportedType);
    expect(uploadErrorText({ status: 403, data: { detail: DOCUMENT_MESSAGES.submitted } })).toBe(
      DOCUMENT_MESSAGES.submitted,
    );
    expect(uploadErrorText({ status: 0, data: {} })).toBe('An error has occurred');
  });

  it('sends the fields then one file part per page', () => {
    const form = uploadForm(
      {
        kind: 'create',
        fields: {
          case: 4,
          document_type: 'passport',
          collector: 'identity',
          confirmations: ['a', 'b'],
        },
      },
      [file('1.png', 'image/png'), file('2.png', 'image/png')],
    );
    expect([...form.keys()]).toEqual([
      'case',
      'document_type',
      'collector',
      'confirmations',
      'file',
      'file',
    ]);
    expect(form.get('confirmations')).toBe('a,b');
    expect([
      ...uploadForm({ kind: 'add-pages', id: 3 }, [file('1.png', 'image/png')]).keys(),
    ]).toEqual(['file']);
  });

  it('picks the collectors from the configuration, else from the checks', () => {
    const act = (code: string, collectors?: string[]) => ({
      activity_type: { code },
      config: { collectors },
    });
    expect(collectorsForActivities([act('dbs-basic')]).map((c) => c.key)).toEqual(['identity']);
    expect(collectorsForActivities([act('rtw')]).map((c) => c.key)).toEqual(['right-to-work']);
    expect(collectorsForActivities([act('basic-details')]).map((c) => c.key)).toEqual(['identity']);
    expect(
      collectorsForActivities([
        act('document-collection', ['Right to work']),
        act('dbs-basic'),
      ]).map((c) => c.key),
    ).toEqual(['right-to-work']);
  });
});
