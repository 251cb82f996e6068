import { constants } from 'node:buffer';
import { inflateSync } from 'node:zlib';
import sharp from 'sharp';
import type { DecoderLimits } from './decoder-limits.js';

/** Why a PDF gets no preview (thrown; the decoder answers it as refused). */
export class NoPreview extends Error {}

const MAX_LENGTH = constants.MAX_LENGTH;

/**
 * The total size of the PDF's compressed (FlateDecode) streams once inflated, counted with zlib's own output
 * cap so that a decompression bomb costs at most `max` bytes: NoPreview past it. pdf.js would
 * otherwise inflate a 1 MB file's content stream to 1 GB in memory before drawing a thing.
 * (A stream it cannot inflate here is left for pdf.js: it may be a filter chain.)
 */
export function checkInflatedSize(pdf: Buffer, max: number): void {
  const text = pdf.toString('latin1');
  // every stream is tried: one that is not zlib data fails at once and is left to pdf.js
  // (blanks before the data are skipped: no zlib header starts with one)
  const streamStart = /(?<!end)stream\r?\n[\t\n\r ]*/g;
  let total = 0;
  for (let m = streamStart.exec(text); m; m = streamStart.exec(text)) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    try {
      total += inflateSync(pdf.subarray(start, end), {
        maxOutputLength: Math.min(MAX_LENGTH, Math.max(1, max - total + 1)),
        finishFlush: 2, // Z_SYNC_FLUSH: a stream cut short still counts what it gives
      }).length;
    } catch (err) {
      if (err instanceof RangeError) throw new NoPreview('inflates past the limit');
    }
    if (total > max) throw new NoPreview('inflates past the limit');
    streamStart.lastIndex = end + 'endstream'.length;
  }
}

/**
 * The first page of a PDF rendered to a JPEG `size` pixels on its longest side, with pdf.js
 * (pdfjs-dist, its legacy build for Node) on a @napi-rs/canvas canvas, within `limits` (file
 * size, inflated size, image pixels, canvas area). The document's own scripts never run (pdf.js
 * has no script engine here; eval is off). Runs only in the decoder process (decoder-child.ts).
 */
export async function renderPdfThumbnail(
  pdf: Buffer,
  size: number,
  limits: DecoderLimits,
): Promise<Buffer> {
  if (pdf.length > limits.pdfMaxFileBytes) throw new NoPreview('file too large');
  checkInflatedSize(pdf, limits.pdfMaxDecodedBytes);
  const [{ getDocument }, { createCanvas }] = await Promise.all([
    import('pdfjs-dist/legacy/build/pdf.mjs'),
    import('@napi-rs/canvas'),
  ]);
  const task = getDocument({
    data: new Uint8Array(pdf),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    stopAtErrors: false,
    verbosity: 0,
    maxImageSize: limits.maxPixels,
    canvasMaxAreaInBytes: size * size * 4 * 4,
    isOffscreenCanvasSupported: false,
  });
  try {
    const doc = await task.promise;
    const page = await doc.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    const scale = size / Math.max(natural.width, natural.height, 1);
    const viewport = page.getViewport({ scale });
    const canvas = createCanvas(
      Math.min(size, Math.max(1, Math.ceil(viewport.width))),
      Math.min(size, Math.max(1, Math.ceil(viewport.height))),
    );
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    // pdf.js's types name the DOM's canvas; this project has no DOM types, so they are open
    await page.render({ canvas, canvasContext: context, viewport }).promise;
    const png = await canvas.encode('png');
    return await sharp(png).jpeg({ quality: 80 }).toBuffer();
  } finally {
    await task.destroy().catch(() => undefined);
  }
}
