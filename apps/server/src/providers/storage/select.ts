import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StorageConfig } from '../../config.js';
import { EncryptingStorage } from './encrypted.js';
import type { KeyRing } from './key-ring.js';
import { LocalDiskStorage } from './local-disk.js';
import type { DocumentStorage } from './provider.js';
import { S3Storage } from './s3-client.js';

/**
 * The store the configuration names: an S3-compatible bucket, or local disk (STORAGE_DIR, else
 * DATA_DIR/documents; a fresh temporary folder when neither is set, as with an in-memory database).
 * With `keys` (the server always passes them), files are encrypted at rest under them.
 */
export function createStorage(config: StorageConfig, keys?: KeyRing): DocumentStorage {
  let store: DocumentStorage;
  if (config.driver === 's3') {
    if (!config.s3) throw new Error('STORAGE_DRIVER=s3 needs the S3_* settings');
    store = new S3Storage(config.s3);
  } else {
    store = new LocalDiskStorage(
      config.localDir ?? mkdtempSync(join(tmpdir(), 'kestrel-documents-')),
    );
  }
  return keys ? new EncryptingStorage(store, keys) : store;
}
