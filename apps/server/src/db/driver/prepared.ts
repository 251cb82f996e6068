// Server-side prepared statements on PostgreSQL (PREPARE once per connection, then EXECUTE).
import type pg from 'pg';
import { isDatabaseUnavailable } from './errors.js';
import { sqlLiteral } from './inline-params.js';

/**
 * Server-side prepared statements, so PostgreSQL plans a hot query once per connection rather
 * than on every request (planning costs more than executing a 25-row page). Each distinct query
 * text gets one name for the process; a connection PREPAREs it the first time it needs it (one
 * extra round trip, outside any transaction), then runs `EXECUTE name(literals)` inside the
 * transaction's single message. PostgreSQL re-plans by itself when the role changes (row-level
 * security) or a table changes. Texts PostgreSQL cannot prepare (a parameter of undeterminable
 * type) are remembered and sent inlined, as before.
 */
const MAX_PREPARED = 500;
const statementNames = new Map<string, string>();
const unpreparable = new Set<string>();
const preparedOn = new WeakMap<pg.PoolClient, Set<string>>();

export function statementName(text: string, prefix: string): string | null {
  if (unpreparable.has(text)) return null;
  let name = statementNames.get(text);
  if (name === undefined) {
    if (statementNames.size >= MAX_PREPARED) return null;
    name = String(statementNames.size + 1);
    statementNames.set(text, name);
  }
  return `${prefix}${name}`;
}

/**
 * `EXECUTE name(literals)` for `text` on this connection, preparing it first when needed; null
 * when a value is not plainly inlinable or the text cannot be prepared (send it another way).
 * Call only while the connection is outside a transaction.
 */
export async function executeStatement(
  client: pg.PoolClient,
  text: string,
  values: readonly unknown[],
): Promise<string | null> {
  const literals: string[] = [];
  for (const v of values) {
    const l = sqlLiteral(v);
    if (l === null) return null;
    literals.push(l);
  }
  const name = statementName(text, 'kestrel_s');
  if (name === null) return null;
  let done = preparedOn.get(client);
  if (!done) {
    done = new Set();
    preparedOn.set(client, done);
  }
  if (!done.has(name)) {
    try {
      await client.query(`PREPARE ${name} AS ${text}`);
    } catch (err) {
      // PostgreSQL refused the text (an SQLSTATE code): send it inlined from now on. Anything
      // else (a broken connection, even one with an SQLSTATE such as 57P01) is the caller's error.
      if (!(err instanceof Error && 'code' in err && typeof err.code === 'string')) throw err;
      if (isDatabaseUnavailable(err)) throw err;
      unpreparable.add(text);
      return null;
    }
    done.add(name);
  }
  return literals.length ? `EXECUTE ${name}(${literals.join(', ')})` : `EXECUTE ${name}`;
}
