import { readFile } from 'node:fs/promises';
import sharp from 'sharp';

/** PDFs larger than this get the generic icon: pdf.js needs the whole file in memory to parse it. */
export const PDF_THUMBNAIL_MAX_BYTES = 10 * 1024 * 1024;
/** A first page that takes longer than this to render gets the generic icon. */
export const PDF_THUMBNAIL_TIMEOUT_MS = 10_000;

/**
 * The first page of a PDF rendered to a JPEG `size` pixels on its longest side, with pdf.js
 * (pdfjs-dist, its legacy build for Node) on a @napi-rs/canvas canvas. The document's own
 * scripts never run (pdf.js has no script engine here; eval is off). Null when the PDF is too
 * large, cannot be parsed, or takes too long: the caller then uses the generic icon.
 */
export async function renderPdfThumbnail(
  path: string,
  size: number,
  fileSize: number,
): Promise<Buffer | null> {
  if (fileSize > PDF_THUMBNAIL_MAX_BYTES) return null;
  const [{ getDocument }, { createCanvas }] = await Promise.all([
    import('pdfjs-dist/legacy/build/pdf.mjs'),
    import('@napi-rs/canvas'),
  ]);
  const task = getDocument({
    data: new Uint8Array(await readFile(path)),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), PDF_THUMBNAIL_TIMEOUT_MS);
  });
  const render = (async () => {
    const doc = await task.promise;
    const page = await doc.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    const scale = size / Math.max(natural.width, natural.height, 1);
    const viewport = page.getViewport({ scale });
    const canvas = createCanvas(
      Math.max(1, Math.ceil(viewport.width)),
      Math.max(1, Math.ceil(viewport.height)),
    );
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    // pdf.js's types name the DOM's canvas; this project has no DOM types, so they are open
    await page.render({ canvas, canvasContext: context, viewport }).promise;
    const png = await canvas.encode('png');
    return sharp(png).jpeg({ quality: 80 }).toBuffer();
  })();
  try {
    return await Promise.race([render, timeout]);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
    render.catch(() => undefined);
    await task.destroy().catch(() => undefined);
  }
}
