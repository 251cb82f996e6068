import { once } from 'node:events';
import { crc32, createDeflate } from 'node:zlib';
import sharp from 'sharp';

// Small real files for the upload tests (made here, so nothing binary is committed).

/** A real PNG of `w`×`h` pixels. */
export function pngFile(w = 64, h = 48): Promise<Buffer> {
  return sharp({ create: { width: w, height: h, channels: 3, background: '#2a6' } })
    .png()
    .toBuffer();
}

/** A real JPEG. */
export function jpegFile(w = 80, h = 60): Promise<Buffer> {
  return sharp({ create: { width: w, height: h, channels: 3, background: '#c33' } })
    .jpeg()
    .toBuffer();
}

/**
 * A one-page PDF whose catalogue runs JavaScript when opened (OpenAction); its page is white
 * with a blue square in the lower left quarter (20..120 of 200 points).
 */
export function pdfWithScript(padding = 0): Buffer {
  const content = '0 0 1 rg 20 20 100 100 re f';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 5 0 R >>',
    "<< /Type /Action /S /JavaScript /JS (app.alert('pwned');) >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.concat([Buffer.from(body), Buffer.alloc(padding, 0x20)]);
}

/** `size` bytes of `fill`, deflated as they are made (never held whole): zlib's format. */
async function deflated(size: number, fill: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (c: Buffer) => parts.push(c));
  const chunk = Buffer.alloc(1024 * 1024, fill);
  for (let left = size; left > 0; left -= chunk.length) {
    if (!deflate.write(left >= chunk.length ? chunk : chunk.subarray(0, left))) {
      await once(deflate, 'drain');
    }
  }
  deflate.end();
  await once(deflate, 'end');
  return Buffer.concat(parts);
}

/**
 * A PDF decompression bomb: one page whose content stream (FlateDecode) is `decodedBytes` of
 * blanks: 300 MB make a file of about 300 KB.
 */
export async function pdfBomb(decodedBytes: number): Promise<Buffer> {
  const stream = await deflated(decodedBytes, 0x20);
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
  let trailer = 'xref\n0 5\n0000000000 65535 f \n';
  for (const off of offsets) trailer += `${String(off).padStart(10, '0')} 00000 n \n`;
  const xref = body.length + stream.length + tail.length;
  trailer += `trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.concat([Buffer.from(body), stream, Buffer.from(tail + trailer)]);
}

/** A PNG chunk: length, type, data, CRC. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A real, complete PNG of `side`×`side` black pixels (1-bit greyscale), 16000×16000 by default:
 * 256 megapixels in about 30 KB.
 */
export async function hugePng(side = 16_000): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter, no interlace
  const rowBytes = 1 + Math.ceil(side / 8); // each row: filter byte 0, then the bits
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', await deflated(rowBytes * side, 0)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface FormPart {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body and its Content-Type. */
export function multipart(parts: FormPart[]): { payload: Buffer; contentType: string } {
  const boundary = `----kestrel${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    const type =
      p.filename !== undefined
        ? `Content-Type: ${p.contentType ?? 'application/octet-stream'}\r\n`
        : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(typeof p.value === 'string' ? Buffer.from(p.value) : p.value);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/**
 * A 64×48 HEIC photo (491 bytes), made once with libheif's heif-enc (Debian's libheif-examples)
 * from a flat PNG: neither sharp's prebuilt libvips nor any npm package here encodes HEVC.
 */
export const HEIC_SAMPLE = Buffer.from(
  'AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAa1tZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAA' +
    'AAAAAAAAAAAA5waXRtAAAAAAACAAAAEGlkYXQAAAAAAEAAMAAAADhpbG9jAQAAAERAAAIAAQAAAAAAAAHRAAEAAAAA' +
    'AAAAGgACAAEAAAAAAAAAAQAAAAAAAAAIAAAAOGlpbmYAAAAAAAIAAAAVaW5mZQIAAAEAAQAAaHZjMQAAAAAVaW5mZQ' +
    'IAAAAAAgAAZ3JpZAAAAADYaXBycAAAALZpcGNvAAAAdmh2Y0MBA3AAAAAAAAAAAAAe8AD8/fj4AAAPAyAAAQAYQAEM' +
    'Af//A3AAAAMAkAAAAwAAAwAeugJAIQABACpCAQEDcAAAAwCQAAADAAADAB6gIIEFlurkprm4EBAwIAAAAwAgAAADAC' +
    'EiAAEABkQBwXPAiQAAABRpc3BlAAAAAAAAAEAAAABAAAAAFGlzcGUAAAAAAAAAQAAAADAAAAAQcGl4aQAAAAADCAgI' +
    'AAAAGmlwbWEAAAAAAAAAAgABAoECAAICA4QAAAAaaXJlZgAAAAAAAAAOZGltZwACAAEAAQAAACJtZGF0AAAAFigBr1' +
    'jm9Oq//9P85H1kT/9sTnkanfA=',
  'base64',
);
