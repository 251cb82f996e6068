import { Readable } from 'node:stream';
import sharp from 'sharp';
import type { Tx } from '../../db/connection.js';
import type { DocumentStorage } from '../../providers/storage/provider.js';
import { caseDocuments, type StoredPage } from './case-documents.table.js';
import { pageKeys } from './page-store.js';

export interface CaseDocumentInput {
  customerId: number;
  caseId: number;
  caseActivityId?: number | null;
  documentType?: string;
  group?: string;
  collector?: string;
  source?: 'manual' | 'idsp';
  /** Confirmed eligibility question ids (none by default). */
  confirmations?: string[];
}

/**
 * A document of one page (a small PNG and its thumbnail, really stored) for tests and demo data.
 */
export async function createCaseDocument(
  tx: Tx,
  storage: DocumentStorage,
  input: CaseDocumentInput,
) {
  const image = sharp({ create: { width: 60, height: 40, channels: 3, background: '#4a7' } });
  const png = await image.clone().png().toBuffer();
  const thumb = await image.clone().jpeg().toBuffer();
  const keys = pageKeys({ customerId: input.customerId, caseId: input.caseId }, 'png');
  await storage.put(keys.key, Readable.from([png]), { contentType: 'image/png', size: png.length });
  await storage.put(keys.thumbnailKey, Readable.from([thumb]), {
    contentType: 'image/jpeg',
    size: thumb.length,
  });
  const page: StoredPage = {
    ...keys,
    contentType: 'image/png',
    extension: 'png',
    size: png.length,
    originalName: 'passport.png',
    convertedFrom: null,
    preview: 'ready',
  };
  const [doc] = await tx
    .insert(caseDocuments)
    .values({
      customerId: input.customerId,
      caseId: input.caseId,
      caseActivityId: input.caseActivityId ?? null,
      documentType: input.documentType ?? 'passport',
      group: input.group ?? '1',
      collector: input.collector ?? '',
      source: input.source ?? 'manual',
      confirmations: input.confirmations ?? [],
      pages: [page],
      uploadedByType: 'SubjectUser',
    })
    .returning();
  if (!doc) throw new Error('case document insert returned nothing');
  return doc;
}
