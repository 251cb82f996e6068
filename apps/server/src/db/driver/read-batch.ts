// Read-only statements of concurrent requests sent together in one message (PostgreSQL).
import type pg from 'pg';
import { inlineParams } from './inline-params.js';
import { pgReadQueryable, queryPg, releaseAfter, resultRows } from './pg-exec.js';
import { executeStatement } from './prepared.js';
import type { RowMode } from './types.js';

/** One read-only statement on its own: a pooled client, BEGIN, the statement and COMMIT. */
async function readAlone(
  pool: pg.Pool,
  beginSql: string,
  text: string,
  values: unknown[],
  rowMode: RowMode,
): Promise<{ rows: unknown[] }> {
  const client = await pool.connect();
  try {
    const out = await pgReadQueryable(client, beginSql).query(text, values, rowMode);
    client.release();
    return out;
  } catch (err) {
    // pgReadQueryable rolled back; a broken connection is not reused.
    await releaseAfter(client, err);
    throw err;
  }
}

interface BatchItem {
  beginSql: string;
  /** How many statements `beginSql` holds (BEGIN and the settings). */
  beginStatements: number;
  text: string;
  values: unknown[];
  rowMode: RowMode;
  resolve: (out: { rows: unknown[] }) => void;
  reject: (err: unknown) => void;
}

/** At most this many transactions in one message (one backend runs them one after another). */
export const MAX_READ_BATCH = 8;

/**
 * Read-only statements of concurrent requests travel together: the statements queued while the
 * event loop handles one round of I/O go out in one message on one connection, each as its own
 * transaction (`BEGIN; settings; statement; COMMIT`, so each keeps its own role, tenant and
 * snapshot, and SET LOCAL ends with its COMMIT as ever), and the answers are split back by
 * position. Sending a message wakes a PostgreSQL backend, and on a loaded (virtual) machine that
 * system call was the largest single cost of a list request; a batch pays it once.
 *
 * A statement alone in its round goes as before. When any statement of a batch fails,
 * PostgreSQL skips the rest of the message: the connection is rolled back and each statement of
 * the batch runs again on its own, so each request gets exactly its own answer or error (they
 * are reads, so running one again changes nothing).
 */
export class ReadBatcher {
  private queue: BatchItem[] = [];
  private scheduled = false;

  constructor(private readonly pool: pg.Pool) {}

  query(
    begin: { sql: string; statements: number },
    text: string,
    values: unknown[],
    rowMode: RowMode,
  ): Promise<{ rows: unknown[] }> {
    return new Promise((resolve, reject) => {
      const beginSql = begin.sql;
      const beginStatements = begin.statements;
      this.queue.push({ beginSql, beginStatements, text, values, rowMode, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const items = this.queue;
    this.queue = [];
    for (const mode of ['array', 'object'] as const) {
      const same = items.filter((i) => i.rowMode === mode);
      for (let i = 0; i < same.length; i += MAX_READ_BATCH) {
        const batch = same.slice(i, i + MAX_READ_BATCH);
        // send settles every item itself; should it throw, none is left waiting (settling a
        // promise twice changes nothing) and no rejection goes unhandled.
        this.send(batch).catch((err: unknown) => {
          for (const item of batch) item.reject(err);
        });
      }
    }
  }

  private alone(item: BatchItem): void {
    readAlone(this.pool, item.beginSql, item.text, item.values, item.rowMode).then(
      item.resolve,
      item.reject,
    );
  }

  private async send(batch: BatchItem[]): Promise<void> {
    const [only] = batch;
    if (only && batch.length === 1) {
      this.alone(only);
      return;
    }
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      for (const item of batch) item.reject(err);
      return;
    }
    const parts: string[] = [];
    const sent: BatchItem[] = [];
    let reached = 0;
    try {
      for (const item of batch) {
        reached += 1;
        const inlined =
          (await executeStatement(client, item.text, item.values)) ??
          inlineParams(item.text, item.values);
        if (inlined === null) this.alone(item);
        else {
          parts.push(`${item.beginSql}; ${inlined}; COMMIT`);
          sent.push(item);
        }
      }
    } catch {
      // The connection broke while preparing: every statement runs on its own elsewhere
      // (those not reached yet too).
      client.release(true);
      for (const item of [...sent, ...batch.slice(reached - 1)]) this.alone(item);
      return;
    }
    const mode = sent[0]?.rowMode;
    if (mode === undefined) {
      client.release();
      return;
    }
    let answers: unknown[][];
    try {
      const results = await queryPg(client, parts.join('; '), undefined, mode);
      const list: unknown[] = Array.isArray(results) ? results : [results];
      answers = [];
      let at = 0;
      for (const item of sent) {
        // BEGIN and the settings, then the statement, then COMMIT.
        answers.push(resultRows(list[at + item.beginStatements], 0));
        at += item.beginStatements + 2;
      }
      if (at !== list.length) throw new Error('read batch: answers out of step');
    } catch (err) {
      await releaseAfter(client, err);
      for (const item of sent) this.alone(item);
      return;
    }
    client.release();
    for (const [i, item] of sent.entries()) item.resolve({ rows: answers[i] ?? [] });
  }
}
