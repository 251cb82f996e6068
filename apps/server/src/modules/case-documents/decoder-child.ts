import { readFile, writeFile } from 'node:fs/promises';
import heicConvert from 'heic-convert';
import sharp from 'sharp';
import {
  type DecoderLimits,
  type DecoderReply,
  type DecoderRequest,
  type DecoderTask,
  THUMBNAIL_SIZE,
} from './decoder-limits.js';
import { NoPreview, renderPdfThumbnail } from './pdf-thumbnail.js';

// The decoder process (forked by decoder-pool.ts, one per task): it decodes one uploaded file
// and exits, so whatever the file made it allocate goes back to the system with it. The server
// kills it past its time or memory; here the decoders' own limits refuse what they can see early.

let peakRssBytes = 0;
const notePeak = () => {
  peakRssBytes = Math.max(peakRssBytes, process.memoryUsage.rss());
};

sharp.concurrency(1);
sharp.cache(false);

/** A JPEG thumbnail of an image, upright by its EXIF orientation; refused past the pixel cap. */
function imageThumbnail(input: string, limits: DecoderLimits): Promise<Buffer> {
  return sharp(input, { failOn: 'error', limitInputPixels: limits.maxPixels })
    .rotate()
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 80 })
    .toBuffer();
}

async function run(task: DecoderTask, limits: DecoderLimits): Promise<void> {
  if (task.op === 'heic-to-jpeg') {
    const jpeg = await heicConvert({
      buffer: await readFile(task.input),
      format: 'JPEG',
      quality: 0.9,
    });
    await writeFile(task.output, Buffer.from(jpeg), { mode: 0o600 });
    return;
  }
  const thumbnail =
    task.kind === 'pdf'
      ? await renderPdfThumbnail(await readFile(task.input), THUMBNAIL_SIZE, limits)
      : await imageThumbnail(task.input, limits);
  await writeFile(task.output, thumbnail, { mode: 0o600 });
}

function reply(message: DecoderReply): void {
  notePeak();
  process.send?.({ ...message, peakRssBytes }, () => process.exit(0));
}

process.once('message', ({ task, limits }: DecoderRequest) => {
  const timer = setInterval(notePeak, 20);
  run(task, limits)
    .then(() => reply({ ok: true, peakRssBytes }))
    .catch((err: unknown) => {
      const reason =
        err instanceof NoPreview ? err.message : err instanceof Error ? err.message : 'failed';
      reply({ ok: false, reason: reason.slice(0, 200), peakRssBytes });
    })
    .finally(() => clearInterval(timer));
});
