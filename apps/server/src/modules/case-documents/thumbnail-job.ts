import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PreviewState } from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { jobActor } from '../../jobs/service-job.js';
import { recordAudit } from '../../platform/audit.js';
import { type JobKind, type JobRequest, jobOf } from '../../platform/jobs.js';
import { runInTenant } from '../../platform/service-context.js';
import { documentRepr } from './case-documents.presenter.js';
import { caseDocuments, DOCUMENT_CT, type StoredPage } from './case-documents.table.js';
import type { DecoderOutcome } from './decoder-limits.js';
import { runDecoder } from './decoder-pool.js';

const payload = z.object({
  customer_id: z.number().int().positive(),
  document_id: z.number().int().positive(),
});
export type ThumbnailJob = z.infer<typeof payload>;

/** One page's thumbnail made in a decoder process: 'ready' (stored) or 'none'. */
async function makeThumbnail(deps: AppDeps, page: StoredPage): Promise<PreviewState> {
  const dir = join(deps.config.storage.spoolDir ?? tmpdir(), 'kestrel-thumbnails');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const input = join(dir, randomUUID());
  const output = `${input}.jpg`;
  try {
    const body = await deps.storage.get(page.key);
    if (!body) return 'none';
    await pipeline(body, createWriteStream(input, { flags: 'wx', mode: 0o600 }));
    const outcome: DecoderOutcome = await runDecoder({
      op: 'thumbnail',
      kind: page.contentType === 'application/pdf' ? 'pdf' : 'image',
      input,
      output,
    });
    if (outcome.status !== 'done') return 'none';
    const jpeg = await readFile(output);
    await deps.storage.put(page.thumbnailKey, Readable.from([jpeg]), {
      contentType: 'image/jpeg',
      size: jpeg.length,
    });
    return 'ready';
  } finally {
    await Promise.all([rm(input, { force: true }), rm(output, { force: true })]);
  }
}

/**
 * Makes the pending thumbnails of a document: reads its pages (a short transaction), makes each
 * thumbnail outside any transaction (a decoder process, bounded in time and memory: a file past
 * the limits gets 'none'), then records each page's preview (a short transaction, audited). A
 * page replaced or a document deleted meanwhile keeps nothing of it.
 */
export async function makeDocumentThumbnails(deps: AppDeps, job: ThumbnailJob): Promise<void> {
  const actor = jobActor(job.customer_id);
  const pages = await runInTenant(
    deps,
    actor,
    async (ctx) =>
      (
        await ctx.tx
          .select({ pages: caseDocuments.pages })
          .from(caseDocuments)
          .where(eq(caseDocuments.id, job.document_id))
      )[0]?.pages ?? [],
    { readOnly: true },
  );
  const made = new Map<string, PreviewState>();
  for (const p of pages) {
    if (p.preview === 'pending') made.set(p.thumbnailKey, await makeThumbnail(deps, p));
  }
  if (made.size === 0) return;
  const present = await runInTenant(deps, actor, async (ctx) => {
    const [doc] = await ctx.tx
      .select()
      .from(caseDocuments)
      .where(eq(caseDocuments.id, job.document_id))
      .for('update');
    if (!doc) return new Set<string>();
    const changed = new Set<string>();
    const next = doc.pages.map((p) => {
      const preview = made.get(p.thumbnailKey);
      // another run may have recorded it already (the same page, the same thumbnail key)
      if (preview === undefined || p.preview !== 'pending') return p;
      changed.add(p.thumbnailKey);
      return { ...p, preview };
    });
    if (changed.size > 0) {
      await ctx.tx.update(caseDocuments).set({ pages: next }).where(eq(caseDocuments.id, doc.id));
      await recordAudit(ctx.tx, ctx.actor, {
        verb: 'updated',
        contentType: DOCUMENT_CT,
        objectId: doc.id,
        objectRepr: documentRepr(doc),
        customerId: doc.customerId,
        changes: {
          previews: next.flatMap((p, i) =>
            changed.has(p.thumbnailKey) ? [{ page: i + 1, preview: p.preview }] : [],
          ),
        },
      });
    }
    return new Set(doc.pages.map((p) => p.thumbnailKey));
  });
  // the thumbnail of a page replaced or deleted meanwhile is not kept
  await Promise.allSettled(
    [...made]
      .filter(([key, state]) => state === 'ready' && !present.has(key))
      .map(([key]) => deps.storage.delete(key)),
  );
}

/**
 * The thumbnails of a document's new pages, enqueued in the upload's transaction: the upload
 * answers without waiting for them. One at a time per process (the decoder pool's queue);
 * retried on a storage or database failure, never for a file past the limits (that is 'none').
 */
export const documentThumbnailsJob: JobKind<ThumbnailJob, AppDeps> = {
  name: 'document-thumbnails',
  payload,
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireInSeconds: 300,
  handle: (data, deps) => makeDocumentThumbnails(deps, data),
};

/** The job making document `documentId`'s pending thumbnails. */
export function thumbnailsJob(customerId: number, documentId: number): JobRequest {
  return jobOf(documentThumbnailsJob, { customer_id: customerId, document_id: documentId });
}
