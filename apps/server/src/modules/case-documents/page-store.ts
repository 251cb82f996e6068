import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { DocumentStorage } from '../../providers/storage/provider.js';
import type { UploadTarget } from './case-documents.service.js';
import type { StoredPage } from './case-documents.table.js';
import type { InspectedPage } from './file-inspect.js';

/** Server-made keys: the customer, the case and a random id; never the uploader's name. */
export function pageKeys(target: UploadTarget, extension: string) {
  const id = randomUUID();
  const base = `customers/${target.customerId}/cases/${target.caseId}`;
  return {
    key: `${base}/documents/${id}.${extension}`,
    thumbnailKey: `${base}/thumbnails/${id}.jpg`,
  };
}

/** Removes stored pages (after a failed write, or once a commit has let go of them). */
export async function removePages(storage: DocumentStorage, pages: StoredPage[]): Promise<void> {
  await Promise.allSettled(
    pages.flatMap((p) => [storage.delete(p.key), storage.delete(p.thumbnailKey)]),
  );
}

/**
 * Streams each inspected page from its spool file into the store; its thumbnail is the
 * document-thumbnails job's (preview 'pending' until then). If any put fails, what was already
 * stored is removed before the error goes on.
 */
export async function storePages(
  storage: DocumentStorage,
  target: UploadTarget,
  pages: InspectedPage[],
): Promise<StoredPage[]> {
  const stored: StoredPage[] = [];
  try {
    for (const p of pages) {
      const keys = pageKeys(target, p.extension);
      const page: StoredPage = {
        ...keys,
        contentType: p.contentType,
        extension: p.extension,
        size: p.size,
        originalName: p.originalName,
        convertedFrom: p.convertedFrom,
        preview: 'pending',
      };
      stored.push(page);
      await storage.put(keys.key, createReadStream(p.path), {
        contentType: p.contentType,
        size: p.size,
      });
    }
  } catch (err) {
    await removePages(storage, stored);
    throw err;
  }
  return stored;
}

/** Removes the spool files of inspected pages (a converted HEIC has its own). */
export async function removeSpooled(pages: InspectedPage[]): Promise<void> {
  await Promise.all(pages.map((p) => rm(p.path, { force: true })));
}
