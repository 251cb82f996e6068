import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { DECODER_LIMITS } from './decoder-limits.js';
import { runDecoder } from './decoder-pool.js';
import { hugePng, pdfBomb, pdfWithScript } from './test-files.js';

const dir = mkdtempSync(join(tmpdir(), 'kestrel-decoder-test-'));
const at = (name: string) => join(dir, name);
const MB = 1024 * 1024;

beforeAll(async () => {
  writeFileSync(at('bomb.pdf'), await pdfBomb(300 * MB));
  writeFileSync(at('huge.png'), await hugePng());
  writeFileSync(at('page.pdf'), pdfWithScript());
}, 60_000);

describe('the decoder process', () => {
  it("renders a PDF's first page as a JPEG thumbnail", async () => {
    const out = await runDecoder({
      op: 'thumbnail',
      kind: 'pdf',
      input: at('page.pdf'),
      output: at('page.jpg'),
    });
    expect(out.status).toBe('done');
    expect(await sharp(at('page.jpg')).metadata()).toMatchObject({ format: 'jpeg', width: 320 });
  });

  it('refuses a PDF bomb before pdf.js inflates it, and a 256-megapixel PNG by its header', async () => {
    const bomb = await runDecoder({
      op: 'thumbnail',
      kind: 'pdf',
      input: at('bomb.pdf'),
      output: at('bomb.jpg'),
    });
    expect(bomb).toMatchObject({ status: 'refused', reason: 'inflates past the limit' });
    expect(bomb.peakRssBytes).toBeLessThan(DECODER_LIMITS.maxRssBytes);
    const png = await runDecoder({
      op: 'thumbnail',
      kind: 'image',
      input: at('huge.png'),
      output: at('huge.jpg'),
    });
    expect(png).toMatchObject({ status: 'refused', reason: 'Input image exceeds pixel limit' });
  });

  it('kills a decoder past its memory, and one past its time', async () => {
    // without the inflated-size check, pdf.js inflates the bomb until the process is killed
    const limits = { ...DECODER_LIMITS, pdfMaxDecodedBytes: 2 ** 40, maxRssBytes: 250 * MB };
    const task = {
      op: 'thumbnail',
      kind: 'pdf',
      input: at('bomb.pdf'),
      output: at('bomb.jpg'),
    } as const;
    const before = process.memoryUsage.rss();
    const killed = await runDecoder(task, limits);
    expect(killed).toMatchObject({ status: 'killed', reason: 'memory' });
    expect(killed.peakRssBytes).toBeGreaterThan(250 * MB);
    // the memory was the decoder's, not this process's
    expect(process.memoryUsage.rss() - before).toBeLessThan(50 * MB);
    const slow = await runDecoder(task, { ...limits, maxRssBytes: 4096 * MB, timeoutMs: 300 });
    expect(slow).toMatchObject({ status: 'killed', reason: 'timeout' });
  });
});
