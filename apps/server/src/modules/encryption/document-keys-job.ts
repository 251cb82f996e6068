import { and, asc, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import type { Database } from '../../db/connection.js';
import { enqueue, type JobKind, type JobRequest, jobOf } from '../../platform/jobs.js';
import { EncryptingStorage } from '../../providers/storage/encrypted.js';
import { caseDocuments } from '../case-documents/case-documents.table.js';
import { fieldKeysFrom } from './field-keys-job.js';
import { sweepAll } from './sweep.js';

/** Documents looked at per run of the job (each has a page or a few, and their thumbnails). */
export const DOCUMENT_KEYS_BATCH = 100;

/** Where a sweep goes on from: the last document (customer, id) of the previous batch. */
export interface SweepCursor {
  customerId: number;
  id: number;
}

export interface SweepOutcome {
  /** Files stored before encryption, now encrypted (the backfill). */
  encrypted: number;
  /** Files whose data key was re-wrapped under the current master key (a rotation). */
  rewrapped: number;
  /** Files already encrypted under the current key, or absent. */
  unchanged: number;
  /** Files wrapped by a key this installation does not have (left as they are, unreadable). */
  unknownKey: number;
  /** Where the next batch starts, or null when this batch was the last. */
  next: SweepCursor | null;
}

/**
 * One batch of the document-keys sweep: every file (page and thumbnail) of the next `batch`
 * documents after `after`, across customers (read as the tables' owner, as the sealing of stored
 * secrets is), is brought to the current master key: a file stored before encryption is
 * encrypted (backfill), a file wrapped by an older key has its data key re-wrapped (the content
 * is not re-encrypted). A file whose document let go of it meanwhile (deleted, redacted) is
 * removed again, so a sweep never brings back what another part deleted. Every file stays
 * readable throughout: the ring keeps the older keys.
 */
export async function sweepDocumentKeys(
  db: Database,
  storage: EncryptingStorage,
  after: SweepCursor = { customerId: 0, id: 0 },
  batch = DOCUMENT_KEYS_BATCH,
): Promise<SweepOutcome> {
  const docs = await db.ownerTransaction((tx) =>
    tx
      .select({
        customerId: caseDocuments.customerId,
        id: caseDocuments.id,
        pages: caseDocuments.pages,
      })
      .from(caseDocuments)
      .where(
        sql`(${caseDocuments.customerId}, ${caseDocuments.id}) > (${after.customerId}, ${after.id})`,
      )
      .orderBy(asc(caseDocuments.customerId), asc(caseDocuments.id))
      .limit(batch),
  );
  const outcome: SweepOutcome = {
    encrypted: 0,
    rewrapped: 0,
    unchanged: 0,
    unknownKey: 0,
    next: null,
  };
  const written = new Map<string, SweepCursor>();
  for (const doc of docs) {
    for (const key of doc.pages.flatMap((p) => [p.key, p.thumbnailKey])) {
      const found = await storage.inspect(key);
      if (found.state === 'encrypted' && storage.keys.get(found.keyId) === null) {
        outcome.unknownKey += 1;
      } else if (found.state === 'plain' && (await storage.encryptExisting(key))) {
        outcome.encrypted += 1;
        written.set(key, doc);
      } else if (
        found.state === 'encrypted' &&
        found.keyId !== storage.keys.current.id &&
        (await storage.rewrap(key))
      ) {
        outcome.rewrapped += 1;
        written.set(key, doc);
      } else {
        outcome.unchanged += 1;
      }
    }
  }
  if (written.size > 0) {
    // files let go of while the batch ran are not kept (a rewrite may have brought one back)
    const ids = [...new Set([...written.values()].map((d) => d.id))];
    const still = await db.ownerTransaction((tx) =>
      tx
        .select({ pages: caseDocuments.pages })
        .from(caseDocuments)
        .where(and(inArray(caseDocuments.id, ids))),
    );
    const kept = new Set(still.flatMap((d) => d.pages.flatMap((p) => [p.key, p.thumbnailKey])));
    await Promise.all(
      [...written.keys()].filter((k) => !kept.has(k)).map((k) => storage.delete(k)),
    );
  }
  const last = docs.at(-1);
  if (docs.length === batch && last) outcome.next = { customerId: last.customerId, id: last.id };
  return outcome;
}

/** Every batch of a sweep in turn (tests, the command line); returns the totals. */
export async function sweepAllDocumentKeys(
  db: Database,
  storage: EncryptingStorage,
  batch = DOCUMENT_KEYS_BATCH,
): Promise<Omit<SweepOutcome, 'next'>> {
  return sweepAll<SweepCursor, SweepOutcome>({ customerId: 0, id: 0 }, (cursor) =>
    sweepDocumentKeys(db, storage, cursor, batch),
  );
}

const payload = z.object({
  after_customer: z.number().int().nonnegative(),
  after_id: z.number().int().nonnegative(),
});
type DocumentKeysJob = z.infer<typeof payload>;

/**
 * The document-keys job: one batch of the sweep per run, the next batch enqueued by the run
 * before it ends, so a rotation or a backfill of many files goes on in small steps, each
 * retried alone. Started daily (03:30 UTC) and at every start of the server (documentKeysStart).
 */
export const documentKeysJob: JobKind<DocumentKeysJob, AppDeps> = {
  name: 'document-keys',
  payload,
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  expireInSeconds: 1800,
  cron: () => '30 3 * * *',
  handle: async (data, deps) => {
    if (!(deps.storage instanceof EncryptingStorage)) return;
    const o = await sweepDocumentKeys(deps.db, deps.storage, {
      customerId: data.after_customer,
      id: data.after_id,
    });
    const next = o.next;
    if (next) {
      await deps.db.ownerTransaction((tx) =>
        enqueue(tx, documentKeysFrom({ customerId: next.customerId, id: next.id })),
      );
    }
  },
};

/** The job sweeping from `after` (the start when left out). */
export function documentKeysFrom(after?: SweepCursor): JobRequest {
  return jobOf(documentKeysJob, {
    after_customer: after?.customerId ?? 0,
    after_id: after?.id ?? 0,
  });
}

/**
 * The sweeps a start enqueues (document files, and the encrypted fields of field-keys-job.ts):
 * at most one of each an hour across processes for a current key (a new
 * current key gets its own at once), so a rotation or files from before encryption are dealt
 * with soon after the restart that brought the configuration.
 */
export async function enqueueDocumentKeysAtStart(
  db: Database,
  currentKeyId: string,
): Promise<void> {
  await db.ownerTransaction(async (tx) => {
    await enqueue(tx, {
      ...documentKeysFrom(),
      singletonKey: `document-keys-start:${currentKeyId}`,
      singletonSeconds: 3600,
    });
    // the encrypted fields in the database too (field-keys-job.ts): backfill and rotation
    await enqueue(tx, {
      ...fieldKeysFrom(),
      singletonKey: `field-keys-start:${currentKeyId}`,
      singletonSeconds: 3600,
    });
  });
}
