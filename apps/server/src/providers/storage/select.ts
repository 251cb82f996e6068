import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StorageConfig } from '../../config.js';
import { LocalDiskStorage } from './local-disk.js';
import type { DocumentStorage } from './provider.js';
import { S3Storage } from './s3-client.js';

/**
 * The store the configuration names: an S3-compatible bucket, or local disk (STORAGE_DIR, else
 * DATA_DIR/documents; a fresh temporary folder when neither is set, as with an in-memory database).
 */
export function createStorage(config: StorageConfig): DocumentStorage {
  if (config.driver === 's3') {
    if (!config.s3) throw new Error('STORAGE_DRIVER=s3 needs the S3_* settings');
    return new S3Storage(config.s3);
  }
  return new LocalDiskStorage(config.localDir ?? mkdtempSync(join(tmpdir(), 'kestrel-documents-')));
}
