import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import type { Database } from '../../db/connection.js';
import { enqueue, type JobKind, type JobRequest, jobOf } from '../../platform/jobs.js';
import {
  ENCRYPTED_COLUMNS,
  type FieldCipher,
  fieldCipher,
  fieldKeyId,
  isEncryptedField,
} from './field-cipher.js';
import { FIELD_PREFIX } from './fields.js';
import { MASK_PHASES, maskStoredCopies } from './masked-copies.js';
import { sweepAll } from './sweep.js';

/** Rows looked at per run of the job. */
export const FIELD_KEYS_BATCH = 200;

/** Where a sweep goes on from: the column (ENCRYPTED_COLUMNS index) and the last row done. */
export interface FieldCursor {
  column: number;
  customerId: number;
  caseId: number;
}

export interface FieldSweepOutcome {
  /** Values stored before encryption, now encrypted with their hash (the backfill). */
  encrypted: number;
  /** Values re-encrypted under the current master key (a rotation). */
  reencrypted: number;
  /** Encrypted values whose missing (or, re-hashing, stale) hash was written. */
  hashed: number;
  /** Values under a key this installation lacks, or that do not open (left as they are). */
  unknownKey: number;
  /** Values another write changed while the batch ran (left to that write). */
  skipped: number;
  /** Plain copies masked (audit rows, activities: masked-copies.ts), after the columns. */
  masked: number;
  next: FieldCursor | null;
}

const ident = sql.identifier;

/** `rehash`: every stored hash computed again (a new index key), not only the missing ones. */
export interface FieldSweepOptions {
  rehash?: boolean;
}

/**
 * One batch of the field-keys sweep: the next rows of one encrypted column (every customer's,
 * read as the tables' owner) whose value is not yet under the current master key or has no hash:
 * a plain value (from before encryption) is encrypted and hashed, one under an older key is
 * re-encrypted (its hash, under the index key that does not rotate, stays), a missing hash is
 * written. With `rehash` every value of a hashed column is read and its hash written where it is
 * not the one the installed index key gives (after a change of ENCRYPTION_INDEX_KEY, stale hashes
 * find nothing until then). Each row is written only if its value is still the one read (a user's
 * write meanwhile wins). A second sweep finds nothing to do; an interrupted one goes on from any
 * cursor.
 */
export async function sweepFieldKeys(
  db: Database,
  cipher: FieldCipher,
  after: FieldCursor = { column: 0, customerId: 0, caseId: 0 },
  batch = FIELD_KEYS_BATCH,
  options: FieldSweepOptions = {},
): Promise<FieldSweepOutcome> {
  const outcome: FieldSweepOutcome = {
    encrypted: 0,
    reencrypted: 0,
    hashed: 0,
    unknownKey: 0,
    skipped: 0,
    masked: 0,
    next: null,
  };
  const c = ENCRYPTED_COLUMNS[after.column];
  if (!c) {
    // after the columns, the copies written before masking (the cursor's case: the row id)
    const phase = after.column - ENCRYPTED_COLUMNS.length;
    if (phase < 0 || phase >= MASK_PHASES) return outcome;
    const m = await maskStoredCopies(db, phase, after.caseId, batch);
    outcome.masked = m.masked;
    outcome.skipped = m.skipped;
    if (m.full && m.lastId !== null) {
      outcome.next = { column: after.column, customerId: 0, caseId: m.lastId };
    } else if (phase + 1 < MASK_PHASES) {
      outcome.next = { column: after.column + 1, customerId: 0, caseId: 0 };
    }
    return outcome;
  }
  const current = `${FIELD_PREFIX}${cipher.keys.current.id}:`;
  const col = ident(c.column);
  const hash = c.hash ? ident(c.hash) : null;
  await db.ownerTransaction(async (tx) => {
    const rehash = options.rehash === true && hash !== null;
    const rows = await tx.execute<{
      customer_id: number;
      case_id: number;
      value: string;
      hash: string;
    }>(sql`
      select customer_id, case_id, ${col} as value, ${hash ?? sql`''`} as hash
      from ${ident(c.table)}
      where (customer_id, case_id) > (${after.customerId}, ${after.caseId})
        and ${col} <> ''
        ${rehash ? sql`` : sql`and (not starts_with(${col}, ${current})${hash ? sql` or ${hash} = ''` : sql``})`}
      order by customer_id, case_id
      limit ${batch}`);
    for (const r of rows) {
      const stored = r.value;
      const keyId = fieldKeyId(stored);
      if (keyId !== null && cipher.keys.get(keyId) === null) {
        outcome.unknownKey += 1;
        continue;
      }
      let plain: string;
      try {
        plain = cipher.decrypt(c, stored);
      } catch {
        // tampered, or under another installation's key of the same id: left for a person
        outcome.unknownKey += 1;
        continue;
      }
      const value = isEncryptedField(stored)
        ? (cipher.reencrypt(c, stored) ?? stored)
        : cipher.encrypt(c, plain);
      const hashed = hash ? cipher.hash(c, plain) : '';
      // re-hashing reads every row: one already right is left alone
      if (value === stored && (!hash || hashed === r.hash)) continue;
      const sets = [sql`${col} = ${value}`];
      if (hash) sets.push(sql`${hash} = ${hashed}`);
      const done = await tx.execute(sql`
        update ${ident(c.table)} set ${sql.join(sets, sql`, `)}
        where customer_id = ${r.customer_id} and case_id = ${r.case_id} and ${col} = ${stored}
        returning case_id`);
      if (done.length === 0) outcome.skipped += 1;
      else if (!isEncryptedField(stored)) outcome.encrypted += 1;
      else if (value !== stored) outcome.reencrypted += 1;
      else outcome.hashed += 1;
    }
    const last = rows.at(-1);
    if (rows.length === batch && last) {
      outcome.next = {
        column: after.column,
        customerId: Number(last.customer_id),
        caseId: Number(last.case_id),
      };
    } else {
      // the next column, or the masking phases after the last
      outcome.next = { column: after.column + 1, customerId: 0, caseId: 0 };
    }
  });
  return outcome;
}

/** Every batch of a sweep in turn (tests, the command line); returns the totals. */
export async function sweepAllFieldKeys(
  db: Database,
  cipher: FieldCipher,
  batch = FIELD_KEYS_BATCH,
  options: FieldSweepOptions = {},
): Promise<Omit<FieldSweepOutcome, 'next'>> {
  return sweepAll<FieldCursor, FieldSweepOutcome>(
    { column: 0, customerId: 0, caseId: 0 },
    (cursor) => sweepFieldKeys(db, cipher, cursor, batch, options),
  );
}

/**
 * The command line's field sweep (`npm run db:field-keys`, `npm run db:rehash` in apps/server:
 * db/cli.ts `field-keys [--rehash]`): every batch now, in this process; answers its summary line.
 * With `rehash` every stored hash is computed again (after ENCRYPTION_INDEX_KEY changed).
 */
export async function runFieldKeysCommand(
  db: Database,
  cipher: FieldCipher,
  options: FieldSweepOptions = {},
): Promise<string> {
  const f = await sweepAllFieldKeys(db, cipher, FIELD_KEYS_BATCH, options);
  return `Encrypted fields${options.rehash ? ' (re-hash)' : ''}: ${f.encrypted} encrypted, ${f.reencrypted} re-encrypted under ${cipher.keys.current.id}, ${f.hashed} hashed, ${f.unknownKey} unreadable or under a key not configured, ${f.skipped} changed meanwhile, ${f.masked} plain copies masked.`;
}

/** The options of `cli.ts field-keys`: `--rehash` (every hash again); anything else refused. */
export function fieldKeysCommandOptions(args: readonly string[]): FieldSweepOptions | null {
  if (args.some((a) => a !== '--rehash')) return null;
  return { rehash: args.includes('--rehash') };
}

// a scheduled run has no payload: it starts at the beginning
const position = () => z.number().int().nonnegative().default(0);
const payload = z.object({
  column: position(),
  after_customer: position(),
  after_case: position(),
  /** Every hash computed again (after a change of the index key): `fieldKeysFrom(, true)`. */
  rehash: z.boolean().default(false),
});
type FieldKeysJob = z.infer<typeof payload>;

/**
 * The field-keys job: one batch of the sweep per run, the next enqueued by the run before it
 * ends (as the document-keys job). Started daily (03:45 UTC) and at every start of the server
 * with the document-keys sweep (`enqueueDocumentKeysAtStart`).
 */
export const fieldKeysJob: JobKind<FieldKeysJob, AppDeps> = {
  name: 'field-keys',
  payload,
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  expireInSeconds: 1800,
  cron: () => '45 3 * * *',
  handle: async (data, deps) => {
    const o = await sweepFieldKeys(
      deps.db,
      fieldCipher(),
      { column: data.column, customerId: data.after_customer, caseId: data.after_case },
      FIELD_KEYS_BATCH,
      { rehash: data.rehash },
    );
    const next = o.next;
    if (next) {
      await deps.db.ownerTransaction((tx) => enqueue(tx, fieldKeysFrom(next, data.rehash)));
    }
  },
};

/** The job sweeping from `after` (the start when left out); `rehash`: every hash again. */
export function fieldKeysFrom(after?: FieldCursor, rehash = false): JobRequest {
  return jobOf(fieldKeysJob, {
    column: after?.column ?? 0,
    after_customer: after?.customerId ?? 0,
    after_case: after?.caseId ?? 0,
    rehash,
  });
}
