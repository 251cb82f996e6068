/**
 * Characters a file name must not carry: C0 and C1 controls and DEL (\p{Cc}), and the
 * bidirectional formatting characters (LRM, RLM, the embeddings and overrides U+202A–U+202E, the
 * isolates U+2066–U+2069, the Arabic letter mark), which can make 'photo‮gnp.exe' read as
 * 'photoexe.png'. Names are shown and sent back in Content-Disposition.
 */
const UNSAFE = /[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069\u061C]/gu;

/** The text without control or bidirectional formatting characters. */
export function withoutUnsafeCharacters(text: string): string {
  return text.replace(UNSAFE, '');
}

/** Longest file name kept (its last characters: the extension's end). */
export const FILE_NAME_MAX_LENGTH = 200;

/**
 * An uploaded file's name as kept and shown: without unsafe characters, without any folder
 * (either slash), trimmed, its last FILE_NAME_MAX_LENGTH characters; 'document' when nothing is
 * left.
 */
export function cleanFileName(name: string | undefined): string {
  const printable = withoutUnsafeCharacters(name ?? '').trim();
  const base = printable.replace(/^.*[\\/]/, '').trim();
  return base.slice(-FILE_NAME_MAX_LENGTH) || 'document';
}
