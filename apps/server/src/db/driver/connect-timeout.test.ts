import { createServer, type Server, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './errors.js';
import { openPgPool, pgDatabase } from './pg.js';

// A database behind a network that drops packets instead of refusing them (a firewall, a host
// gone): the TCP connection opens (or hangs) and nothing ever answers. A request must not wait
// for minutes: it gets the "unavailable" error (503) once the connect timeout passes.

let silent: Server;
let port = 0;
const sockets = new Set<Socket>();

beforeAll(async () => {
  // Accepts connections and never says a word, as a black-holed database would.
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const address = silent.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  port = address.port;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => silent.close(r));
});

describe('a database that never answers', () => {
  it('fails the transaction as "unavailable" after the connect timeout, not minutes later', async () => {
    const db = pgDatabase(
      openPgPool(`postgres://postgres@127.0.0.1:${port}/kestrel`, 2, 1_000, 300),
    );
    const started = Date.now();
    const error = await db
      .transaction({ scope: 'all', customerId: null }, (tx) => tx.execute(sql`select 1`))
      .then(
        () => null,
        (err: unknown) => err,
      );
    const waited = Date.now() - started;
    expect(error).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(waited).toBeLessThan(5_000);
    await db.close().catch(() => undefined);
  }, 15_000);

  it('a pool opened with the defaults has a connect timeout', () => {
    const pool = openPgPool(`postgres://postgres@127.0.0.1:${port}/kestrel`);
    expect(pool.options.connectionTimeoutMillis).toBeGreaterThan(0);
    expect(pool.options.connectionTimeoutMillis).toBeLessThanOrEqual(30_000);
    return pool.end();
  });
});
