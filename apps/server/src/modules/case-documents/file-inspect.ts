import { randomUUID } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { DOCUMENT_FILE_TYPES, DOCUMENT_MESSAGES, type DocumentContentType } from '@kestrel/domain';
import { fileTypeFromFile } from 'file-type';
import sharp from 'sharp';
import { ValidationError } from '../../platform/errors.js';
import { runDecoder } from './decoder-pool.js';
import type { SpooledFile } from './upload-receive.js';

/** A page ready to store: its file (maybe converted), spooled. Its thumbnail comes later. */
export interface InspectedPage {
  path: string;
  size: number;
  contentType: DocumentContentType;
  extension: string;
  originalName: string;
  convertedFrom: string | null;
}

const HEIC = new Set(['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence']);

const isDocumentType = (mime: string): mime is DocumentContentType =>
  Object.hasOwn(DOCUMENT_FILE_TYPES, mime);

const unreadable = () => ValidationError.of('file', DOCUMENT_MESSAGES.unreadableImage);

/**
 * 400 unless an image's header reads (format, dimensions): libvips reads the header only, no
 * pixel is decoded here. Decoding is the thumbnail job's, in a decoder process.
 */
async function checkImageHeader(path: string): Promise<void> {
  try {
    const meta = await sharp(path, { failOn: 'error', limitInputPixels: false }).metadata();
    if (!meta.width || !meta.height) throw unreadable();
  } catch {
    throw unreadable();
  }
}

/** A HEIC photo converted to JPEG in a decoder process (bounded: see decoder-limits.ts). */
async function convertHeic(file: SpooledFile): Promise<InspectedPage> {
  const path = `${file.path}-${randomUUID()}.jpg`;
  const outcome = await runDecoder({ op: 'heic-to-jpeg', input: file.path, output: path });
  if (outcome.status !== 'done') {
    await rm(path, { force: true });
    throw unreadable();
  }
  const page: InspectedPage = {
    path,
    size: (await stat(path)).size,
    contentType: 'image/jpeg',
    extension: 'jpg',
    originalName: file.originalName,
    convertedFrom: 'heic',
  };
  try {
    await checkImageHeader(path);
  } catch (err) {
    await rm(path, { force: true });
    throw err;
  }
  return page;
}

/**
 * Decides a spooled file's type from its content (magic bytes, file-type: it reads the first few
 * KB only), never from its name or the part's Content-Type: JPEG, PNG and PDF are kept as they
 * are, a HEIC photo is converted to JPEG (in a decoder process, killed past its time or memory),
 * anything else is refused (400), as is an image whose header does not read. No thumbnail is
 * made here: the request never waits for one (see the document-thumbnails job).
 */
export async function inspectFile(file: SpooledFile): Promise<InspectedPage> {
  const detected = await fileTypeFromFile(file.path);
  const mime = detected?.mime ?? '';
  if (HEIC.has(mime)) return convertHeic(file);
  if (!isDocumentType(mime)) {
    throw ValidationError.of('file', DOCUMENT_MESSAGES.unsupportedType);
  }
  if (mime !== 'application/pdf') await checkImageHeader(file.path);
  return {
    path: file.path,
    size: file.size,
    contentType: mime,
    extension: DOCUMENT_FILE_TYPES[mime],
    originalName: file.originalName,
    convertedFrom: null,
  };
}
