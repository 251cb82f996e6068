import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError } from './errors.js';

// What every request's input goes through once, before any route sees it: JSON bodies nested
// no deeper than MAX_JSON_DEPTH (checked on the text, before parsing, so a 10,000-deep body costs
// one pass and no recursion), and no NUL character in any string of the body, the query string
// or the path (PostgreSQL text cannot hold one: it would fail in the database, as a 500).

export const MAX_JSON_DEPTH = 32;
export const NUL_MESSAGE = 'Null characters are not allowed.';

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

const hasNul = (s: string) => s.includes('\u0000');

/**
 * The path (`a.0.b`, '' for the value itself) of the first string or key holding a NUL (or, with
 * `bad`, text it refuses).
 */
export function nulPath(
  value: unknown,
  path: string[] = [],
  bad: (s: string) => boolean = hasNul,
): string | null {
  if (typeof value === 'string') return bad(value) ? path.join('.') : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], [...path, String(i)], bad);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (bad(k)) return path.join('.');
      const found = nulPath(v, [...path, k], bad);
      if (found !== null) return found;
    }
  }
  return null;
}

function rejectNul(value: unknown): void {
  const at = nulPath(value);
  if (at !== null) throw ValidationError.of(at || 'non_field_errors', NUL_MESSAGE);
}

/** Replaces Fastify's JSON parser (same prototype-poisoning protection) and checks queries. */
export function registerBodyParsing(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request: FastifyRequest, body: string | Buffer, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (jsonDepth(text) > MAX_JSON_DEPTH) {
        done(
          ValidationError.of(
            'non_field_errors',
            `JSON nested deeper than ${MAX_JSON_DEPTH} levels.`,
          ),
          undefined,
        );
        return;
      }
      parseJson(request, text, (err, value) => {
        if (err) return done(err, undefined);
        try {
          rejectNul(value);
        } catch (e) {
          return done(e as ValidationError, undefined);
        }
        done(null, value);
      });
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
