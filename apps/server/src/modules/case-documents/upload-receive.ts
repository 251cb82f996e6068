import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { cleanFileName, DOCUMENT_MESSAGES } from '@kestrel/domain';
import type { FastifyRequest } from 'fastify';
import { AppError, ValidationError } from '../../platform/errors.js';

/** 413 with the file field's message (the body's own shape: `{file: [message]}`). */
export class UploadTooLargeError extends AppError {
  constructor(maxBytes: number) {
    super(413, { file: [DOCUMENT_MESSAGES.tooLarge(maxBytes)] });
  }
}

const MALFORMED = 'The upload could not be read: send it again as multipart/form-data.';

/** A file as received: spooled to a private temporary file, never held in memory. */
export interface SpooledFile {
  path: string;
  /** The uploader's name for it (display only; never used for a path or the type). */
  originalName: string;
  size: number;
}

export interface ReceivedUpload {
  fields: Record<string, string>;
  files: SpooledFile[];
  /** Removes every spooled file (call in `finally`). */
  cleanup: () => Promise<void>;
}

export interface ReceiveLimits {
  spoolDir: string | null;
  maxBytes: number;
  maxPages: number;
}

/** Counts bytes as they pass and fails the stream as soon as there are more than `max`. */
function byteCap(max: number, onSize: (n: number) => void): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      total += chunk.length;
      if (total > max) {
        done(new UploadTooLargeError(max));
        return;
      }
      onSize(total);
      done(null, chunk);
    },
  });
}

/**
 * Reads a multipart/form-data request part by part: text fields into `fields`, each file part
 * streamed through a byte cap into its own temporary file (mode 600, a server-made name). A file
 * over `maxBytes` fails with 413 as soon as the cap is crossed: the rest of the body is not read
 * and nothing is kept. Any failure removes what was spooled.
 */
export async function receiveUpload(
  request: FastifyRequest,
  limits: ReceiveLimits,
): Promise<ReceivedUpload> {
  if (!request.isMultipart()) {
    throw ValidationError.of('file', DOCUMENT_MESSAGES.noFile);
  }
  const dir = join(limits.spoolDir ?? tmpdir(), 'kestrel-uploads');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const fields: Record<string, string> = {};
  const files: SpooledFile[] = [];
  const cleanup = async () => {
    await Promise.all(files.map((f) => rm(f.path, { force: true })));
  };
  try {
    const parts = request.parts({
      limits: {
        // the byte cap below answers first; busboy's own limit is the backstop
        fileSize: limits.maxBytes + 1,
        files: limits.maxPages,
        fields: 20,
        fieldSize: 2000,
        parts: limits.maxPages + 20,
        headerPairs: 50,
      },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      const file: SpooledFile = {
        path: join(dir, randomUUID()),
        originalName: cleanFileName(part.filename),
        size: 0,
      };
      files.push(file);
      await pipeline(
        part.file,
        byteCap(limits.maxBytes, (n) => {
          file.size = n;
        }),
        createWriteStream(file.path, { flags: 'wx', mode: 0o600 }),
      );
      if (part.file.truncated) throw new UploadTooLargeError(limits.maxBytes);
    }
  } catch (err) {
    await cleanup();
    if (err instanceof Error && 'code' in err) {
      if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new UploadTooLargeError(limits.maxBytes);
      if (err.code === 'FST_FILES_LIMIT') {
        throw ValidationError.of('file', DOCUMENT_MESSAGES.tooManyPages(limits.maxPages));
      }
    }
    // busboy's complaints about a malformed body carry no code (file system errors do)
    if (err instanceof Error && !(err instanceof AppError) && !('code' in err)) {
      throw ValidationError.of('non_field_errors', MALFORMED);
    }
    throw err;
  }
  return { fields, files, cleanup };
}
