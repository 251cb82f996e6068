import { once } from 'node:events';
import { createDeflate, deflateSync } from 'node:zlib';

// Small real files the e2e tests upload (made here, so nothing binary is committed).

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** A real PNG photo stand-in: a w×h RGB gradient. */
export function png(w = 240, h = 160): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const rows: Buffer[] = [];
  for (let y = 0; y < h; y++) {
    const row = Buffer.alloc(1 + w * 3);
    for (let x = 0; x < w; x++) {
      row[1 + x * 3] = (x * 255) / w;
      row[2 + x * 3] = (y * 255) / h;
      row[3 + x * 3] = 160;
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A PDF decompression bomb: one page whose content stream (FlateDecode) is `mb` MB of blanks,
 * deflated as it is made (never held inflated): 200 MB make a file of about 200 KB.
 */
export async function pdfBomb(mb = 200): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (c: Buffer) => parts.push(c));
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  for (let i = 0; i < mb; i++) {
    if (!deflate.write(chunk)) await once(deflate, 'drain');
  }
  deflate.end();
  await once(deflate, 'end');
  const stream = Buffer.concat(parts);
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  [
    '<< /Type /Catalog /Pages 2 0 R >>\nendobj',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>\nendobj',
    `<< /Length ${stream.length} /Filter /FlateDecode >>\nstream`,
  ].forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\n`;
  });
  const tail = '\nendstream\nendobj\n';
  const xref = body.length + stream.length + tail.length;
  let trailer = 'xref\n0 5\n0000000000 65535 f \n';
  for (const off of offsets) trailer += `${String(off).padStart(10, '0')} 00000 n \n`;
  trailer += `trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.concat([
    Buffer.from(body, 'latin1'),
    stream,
    Buffer.from(tail + trailer, 'latin1'),
  ]);
}
