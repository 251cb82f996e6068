import { describe, expect, it } from 'vitest';
import { cleanFileName, withoutUnsafeCharacters } from './file-names.js';

describe('withoutUnsafeCharacters', () => {
  it.each([
    ['a right-to-left override', 'invoice\u202Efdp.exe', 'invoicefdp.exe'],
    [
      'every bidirectional mark and embedding',
      'a\u200Eb\u200Fc\u202Ad\u202Be\u202Cf\u202Dg',
      'abcdefg',
    ],
    ['the isolates and the Arabic letter mark', 'a\u2066b\u2067c\u2068d\u2069e\u061Cf', 'abcdef'],
    ['C0 controls and DEL', 'a\u0000b\u0009c\u001Fd\u007Fe', 'abcde'],
    ['C1 controls', 'a\u0080b\u009Fc', 'abc'],
    ['nothing from a plain name', 'Bill (March) €.pdf', 'Bill (March) €.pdf'],
    ['nothing from right-to-left letters', 'جواز.pdf', 'جواز.pdf'],
  ])('removes %s', (_, input, output) => {
    expect(withoutUnsafeCharacters(input)).toBe(output);
  });
});

describe('cleanFileName', () => {
  it.each([
    ['the override of a disguised name', 'photo\u202Egnp.exe', 'photognp.exe'],
    ['the folders of a path', 'C:\\Users\\a\\scan.png', 'scan.png'],
    ['a name of only hidden characters', '\u202E\u200F ', 'document'],
    ['nothing given', undefined, 'document'],
  ])('drops %s', (_, input, output) => {
    expect(cleanFileName(input)).toBe(output);
  });

  it('keeps the last 200 characters (the extension end)', () => {
    expect(cleanFileName(`${'x'.repeat(300)}.pdf`)).toBe(`${'x'.repeat(196)}.pdf`);
  });
});
