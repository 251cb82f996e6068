import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { DOCUMENT_FILE_TYPES, DOCUMENT_MESSAGES, type DocumentContentType } from '@kestrel/domain';
import { fileTypeFromFile } from 'file-type';
import heicConvert from 'heic-convert';
import sharp from 'sharp';
import { ValidationError } from '../../platform/errors.js';
import { renderPdfThumbnail } from './pdf-thumbnail.js';
import type { SpooledFile } from './upload-receive.js';

/** Longest side of a thumbnail, in pixels. */
export const THUMBNAIL_SIZE = 320;

/** A page ready to store: its file (maybe converted) and its thumbnail, both spooled. */
export interface InspectedPage {
  path: string;
  size: number;
  contentType: DocumentContentType;
  extension: string;
  originalName: string;
  convertedFrom: string | null;
  thumbnail: Buffer;
}

const HEIC = new Set(['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence']);

/**
 * The generic thumbnail of a PDF whose first page cannot be rendered (too large, unreadable or
 * too slow: see pdf-thumbnail.ts).
 */
const PDF_ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="${THUMBNAIL_SIZE}" height="${THUMBNAIL_SIZE}" viewBox="0 0 320 320">
<rect width="320" height="320" fill="#f1f3f5"/>
<path d="M90 40h105l45 45v195H90z" fill="#fff" stroke="#495057" stroke-width="6"/>
<path d="M195 40v45h45" fill="none" stroke="#495057" stroke-width="6"/>
<rect x="70" y="170" width="130" height="60" rx="6" fill="#c92a2a"/>
<text x="135" y="212" font-family="sans-serif" font-size="36" font-weight="bold" fill="#fff" text-anchor="middle">PDF</text>
</svg>`;
let pdfIcon: Promise<Buffer> | null = null;

/** The PDF icon as a JPEG, rendered once. */
function pdfThumbnail(): Promise<Buffer> {
  if (!pdfIcon) pdfIcon = sharp(Buffer.from(PDF_ICON_SVG)).jpeg({ quality: 85 }).toBuffer();
  return pdfIcon;
}

const isDocumentType = (mime: string): mime is DocumentContentType =>
  Object.hasOwn(DOCUMENT_FILE_TYPES, mime);

/** A JPEG thumbnail of an image file, turned upright by its EXIF orientation. */
async function imageThumbnail(path: string): Promise<Buffer> {
  try {
    return await sharp(path, { failOn: 'error' })
      .rotate()
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer();
  } catch {
    throw ValidationError.of('file', DOCUMENT_MESSAGES.unreadableImage);
  }
}

/**
 * Decides a spooled file's type from its content (magic bytes, file-type), never from its name or
 * the part's Content-Type: JPEG, PNG and PDF are kept as they are, a HEIC photo is converted to
 * JPEG (heic-convert: pure JavaScript, so the photo is decoded in memory; it is within the upload
 * cap), anything else is refused (400). Images must also decode (a PNG header on garbage is 400).
 */
export async function inspectFile(file: SpooledFile): Promise<InspectedPage> {
  const detected = await fileTypeFromFile(file.path);
  const mime = detected?.mime ?? '';
  if (HEIC.has(mime)) {
    let jpeg: Buffer;
    try {
      jpeg = Buffer.from(
        await heicConvert({ buffer: await readFile(file.path), format: 'JPEG', quality: 0.9 }),
      );
    } catch {
      throw ValidationError.of('file', DOCUMENT_MESSAGES.unreadableImage);
    }
    const path = `${file.path}-${randomUUID()}.jpg`;
    await writeFile(path, jpeg, { mode: 0o600 });
    return {
      path,
      size: jpeg.length,
      contentType: 'image/jpeg',
      extension: 'jpg',
      originalName: file.originalName,
      convertedFrom: 'heic',
      thumbnail: await imageThumbnail(path),
    };
  }
  if (!isDocumentType(mime)) {
    throw ValidationError.of('file', DOCUMENT_MESSAGES.unsupportedType);
  }
  const contentType = mime;
  const thumbnail =
    contentType === 'application/pdf'
      ? ((await renderPdfThumbnail(file.path, THUMBNAIL_SIZE, file.size)) ?? (await pdfThumbnail()))
      : await imageThumbnail(file.path);
  return {
    path: file.path,
    size: file.size,
    contentType,
    extension: DOCUMENT_FILE_TYPES[contentType],
    originalName: file.originalName,
    convertedFrom: null,
    thumbnail,
  };
}
