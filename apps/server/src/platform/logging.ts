// What the server's logs may say about an error: never the personal data a failed query carried.
import type { FastifyServerOptions } from 'fastify';
import type { AppConfig } from '../config.js';

/** The part of Drizzle's "Failed query: …\nparams: …" message that holds the values. */
const PARAMS_LINE = /\nparams: [\s\S]*$/;

/** Properties of an error that carry the values a statement was given (names, emails, …). */
const VALUE_KEYS = new Set(['params', 'parameters', 'values', 'detail']);

/** An error as a log line holds it. */
export interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/**
 * An error as a log line's `err`: its type, message, code, stack and the SQLSTATE fields
 * PostgreSQL gives (constraint, table, column), and what it wraps, but not the bound values
 * (Drizzle's `params`, node-postgres's `detail` such as "Key (email)=(…) already exists"):
 * logs go to places personal and criminal-record data must not.
 */
export function logSafeError(err: unknown, depth = 0): LoggedError {
  if (!(err instanceof Error)) return { type: typeof err, message: String(err), stack: '' };
  const type = err.constructor.name;
  const message = err.message.replace(PARAMS_LINE, '');
  // The stack's first lines repeat the message (values included): keep only the frames.
  const frames = (err.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  const out: LoggedError = { type, message, stack: [`${type}: ${message}`, ...frames].join('\n') };
  for (const [key, value] of Object.entries(err)) {
    if (VALUE_KEYS.has(key) || key === 'cause') continue;
    if (value === undefined || typeof value === 'function') continue;
    out[key] = value;
  }
  if (err.cause !== undefined && depth < 4) out.cause = logSafeError(err.cause, depth + 1);
  return out;
}

/** Fastify's logger options: the level, and errors logged through `logSafeError`. */
export function loggerOptions(
  config: Pick<AppConfig, 'logLevel'>,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return { level: config.logLevel, serializers: { err: logSafeError } };
}
