// Connection-error classification: the database cannot be reached (503), not a refused statement.

/**
 * SQLSTATEs of a connection that is lost or refused: class 08 (connection exception), the server
 * shutting down, crashed, starting up or its database dropped (57P01-57P04), session timeouts
 * that end the connection (57P05, 25P03), and too many connections (53300).
 */
const UNAVAILABLE_STATE = /^(08[0-9A-Z]{3}|57P0[1-5]|25P03|53300)$/;
/** Socket errors of a server that cannot be reached. */
const UNAVAILABLE_SOCKET = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres's own errors for a connection that broke, or a pool that is closing. */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end)/;

/**
 * True when `err` (or what it wraps: Drizzle's query error, an AggregateError of connection
 * attempts) says the database cannot be reached or the connection was lost, rather than that
 * the database refused the statement: the request may succeed later (503).
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 4) return false;
  const code = 'code' in err ? err.code : undefined;
  if (typeof code === 'string' && (UNAVAILABLE_STATE.test(code) || UNAVAILABLE_SOCKET.has(code))) {
    return true;
  }
  if (UNAVAILABLE_MESSAGE.test(err.message)) return true;
  if (
    err instanceof AggregateError &&
    err.errors.some((e) => isDatabaseUnavailable(e, depth + 1))
  ) {
    return true;
  }
  return isDatabaseUnavailable(err.cause, depth + 1);
}
