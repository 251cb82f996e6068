import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertKey, type DocumentStorage, type ObjectInfo } from './provider.js';

/**
 * Documents as files under `root` (by default DATA_DIR/documents). A put writes a hidden part
 * file beside the target and renames it into place, so a reader never sees half an object and a
 * failed write leaves nothing behind.
 */
export class LocalDiskStorage implements DocumentStorage {
  readonly kind = 'local' as const;
  constructor(readonly root: string) {}

  private path(key: string): string {
    assertKey(key);
    return join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Readable, info: ObjectInfo): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    const part = `${target}.${randomUUID()}.part`;
    try {
      await pipeline(body, createWriteStream(part, { flags: 'wx', mode: 0o600 }));
      const written = (await stat(part)).size;
      if (written !== info.size) {
        throw new Error(`Stored ${written} bytes where ${info.size} were expected`);
      }
      await rename(part, target);
    } catch (err) {
      await rm(part, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Readable | null> {
    const path = this.path(key);
    try {
      if (!(await stat(path)).isFile()) return null;
    } catch {
      return null;
    }
    return createReadStream(path);
  }

  /**
   * Overwrites the object's first bytes in place (an encrypted file's header when its data key
   * is re-wrapped): a reader sees the old header or the new one, both opening the same content.
   * False when there is no object (deleted meanwhile: nothing is brought back).
   */
  async writeHead(key: string, head: Buffer): Promise<boolean> {
    let file: Awaited<ReturnType<typeof open>>;
    try {
      file = await open(this.path(key), 'r+');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
    try {
      await file.write(head, 0, head.length, 0);
      await file.datasync();
      return true;
    } finally {
      await file.close();
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}
