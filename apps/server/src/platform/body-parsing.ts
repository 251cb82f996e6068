import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError } from './errors.js';

// Every body the server parses goes through parseJsonText once, with one set of limits: the API's
// JSON bodies (the content-type parser below) and the raw bodies of the provider-facing routes
// (check callbacks, payments webhooks, identity callbacks), which keep their exact text for the
// signature and parse it afterwards. The limits: nested no deeper than MAX_JSON_DEPTH (checked on
// the text, before parsing, so a 10,000-deep body costs one pass and no recursion), no prototype
// poisoning (a `__proto__` key, or `constructor.prototype`, as Fastify's own parser refuses), and
// no text PostgreSQL cannot store (a NUL, an unpaired surrogate) in any string or key of the body;
// the query string and the path are checked for NULs too.

export const MAX_JSON_DEPTH = 32;
export const DEEP_JSON_MESSAGE = `JSON nested deeper than ${MAX_JSON_DEPTH} levels.`;
export const MALFORMED_JSON_MESSAGE = 'Malformed JSON.';
export const NUL_MESSAGE = 'Null characters are not allowed.';
export const UNPAIRED_SURROGATE_MESSAGE = 'Unpaired surrogate characters are not allowed.';
/** The body limit of the provider-facing routes that read their body raw. */
export const RAW_BODY_LIMIT = 64 * 1024;

/** The deepest nesting of arrays and objects in a JSON text, counted until it passes `limit`. */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why PostgreSQL could not store this text (null: it can). */
function unstorable(s: string): string | null {
  if (s.includes('\u0000')) return NUL_MESSAGE;
  return LONE_SURROGATE.test(s) ? UNPAIRED_SURROGATE_MESSAGE : null;
}

/** What is wrong with a parsed body, and where (`a.0.b`; '' for the value itself). */
interface Problem {
  path: string;
  message: string;
}

const isPoisoned = (key: string, value: unknown) =>
  key === '__proto__' ||
  (key === 'constructor' &&
    value !== null &&
    typeof value === 'object' &&
    Object.hasOwn(value, 'prototype'));

/** A value met in the walk, with the way to it (kept as links: no path is copied per level). */
interface Visit {
  value: unknown;
  key: string | null;
  parent: Visit | null;
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let v: Visit | null = visit; v; v = v.parent) if (v.key !== null) keys.push(v.key);
  return keys.reverse().join('.');
}

/**
 * The first problem in a parsed value (walked with its own stack, not by recursion): a string or
 * key PostgreSQL cannot store, or (with `poisoning`) a key that would poison a prototype.
 */
export function findProblem(value: unknown, poisoning = false): Problem | null {
  const stack: Visit[] = [{ value, key: null, parent: null }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const v = visit.value;
    if (typeof v === 'string') {
      const message = unstorable(v);
      if (message) return { path: pathOf(visit), message };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ value: v[i], key: String(i), parent: visit });
      }
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (const [k, child] of entries) {
        if (poisoning && isPoisoned(k, child)) return { path: '', message: MALFORMED_JSON_MESSAGE };
        const message = unstorable(k);
        if (message) return { path: pathOf(visit), message };
      }
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i] ?? ['', null];
        stack.push({ value: child, key: k, parent: visit });
      }
    }
  }
  return null;
}

const refuse = (p: Problem) => ValidationError.of(p.path || 'non_field_errors', p.message);

/**
 * The one JSON parse of every body: 400 (the API's error shape) when it is nested deeper than
 * MAX_JSON_DEPTH (before anything recursive runs), is not JSON, poisons a prototype, or holds text
 * the database cannot store.
 */
export function parseJsonText(text: string): unknown {
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    throw ValidationError.of('non_field_errors', DEEP_JSON_MESSAGE);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw ValidationError.of('non_field_errors', MALFORMED_JSON_MESSAGE);
  }
  // JSON.parse makes `__proto__` an own key (harmless here) that a later spread or merge would
  // not: refused as Fastify's parser refuses it; looked for only when the text names it
  const problem = findProblem(value, /__proto__|constructor/.test(text));
  if (problem) throw refuse(problem);
  return value;
}

/**
 * For a scope of provider-facing routes that verify a signature over the exact bytes sent: the
 * body of these content types is kept as text (at most RAW_BODY_LIMIT), for the route to verify,
 * then parse with parseJsonText.
 */
export function keepRawBodies(scope: FastifyInstance, contentTypes: string | string[]): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(
    contentTypes,
    { parseAs: 'string', bodyLimit: RAW_BODY_LIMIT },
    (_req, body, done) => done(null, typeof body === 'string' ? body : body.toString('utf8')),
  );
}

function rejectNul(value: unknown): void {
  const problem = findProblem(value);
  if (problem) throw refuse(problem);
}

/** Replaces Fastify's JSON parser with parseJsonText, and checks queries and paths. */
export function registerBodyParsing(app: FastifyInstance): void {
  const parseEmpty = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request: FastifyRequest, body: string | Buffer, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      // an empty body keeps Fastify's own answer
      if (text.length === 0) return parseEmpty(request, text, done);
      try {
        done(null, parseJsonText(text));
      } catch (err) {
        done(err instanceof Error ? err : new Error(String(err)), undefined);
      }
    },
  );
  app.addHook('preValidation', async (request) => {
    rejectNul(request.query);
    rejectNul(request.params);
  });
}

/**
 * A route's `preValidation` hook for a body that may be left out (e.g. `cancel`): no body (or a
 * JSON `null`) reads as `{}`, so the route's body schema answers its own messages (a missing
 * field is 'Required') instead of refusing the request as a whole.
 */
export async function absentBodyAsEmpty(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}
