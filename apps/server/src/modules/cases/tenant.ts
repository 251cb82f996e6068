import { isIsoDate } from '@kestrel/domain';
import { type AnyColumn, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Tx } from '../../db/connection.js';
import { actorOf, withOpsContext, withTenant } from '../../platform/access.js';
import type { Actor } from '../../platform/context.js';
import { ValidationError } from '../../platform/errors.js';
import { strictId } from '../../platform/ids.js';
import { type ResourceContext, resourceContext } from '../../platform/resource-definition.js';
import { subjects } from '../subjects/subjects.table.js';

/** Runs `fn` with this actor in the transaction `open` gives, then what it left for after commit. */
async function withActor<T>(
  actor: Actor,
  request: FastifyRequest,
  open: (run: (tx: Tx) => Promise<T>) => Promise<T>,
  fn: (ctx: ResourceContext) => Promise<T>,
): Promise<T> {
  const later: (() => Promise<void> | void)[] = [];
  const result = await open((tx) => fn(resourceContext(tx, actor, request, later)));
  for (const f of later) await f();
  return result;
}

/**
 * Runs `fn` in one tenant transaction with the request's actor; `ctx.enqueue` adds jobs (mail)
 * to it, functions given to `ctx.afterCommit` run once it has committed. `readOnly` for pure
 * reads.
 */
export function inTenant<T>(
  request: FastifyRequest,
  fn: (ctx: ResourceContext) => Promise<T>,
  readOnly = false,
): Promise<T> {
  return withActor(actorOf(request), request, (run) => withTenant(request, run, { readOnly }), fn);
}

/**
 * `inTenant` for the /api/ops/ variants: one transaction across every customer (ops staff only,
 * 403 for anyone else), the actor's customer cleared so nothing is scoped to an ops session's
 * customer by accident.
 */
export function inOps<T>(
  request: FastifyRequest,
  fn: (ctx: ResourceContext) => Promise<T>,
  readOnly = false,
): Promise<T> {
  const actor = { ...actorOf(request), customerId: null };
  return withActor(actor, request, (run) => withOpsContext(request, run, { readOnly }), fn);
}

/** Parses a body with a (domain) schema; failures become 400 `{field.path: [messages]}`. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const fields: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.join('.') || 'non_field_errors';
    const message = /received undefined$/.test(issue.message) ? 'Required' : issue.message;
    fields[key] = [...(fields[key] ?? []), message];
  }
  throw new ValidationError(fields);
}

/** `?name=` as one string (a repeated key joins with commas), or undefined. */
export function queryString(query: unknown, name: string): string | undefined {
  if (typeof query !== 'object' || query === null) return undefined;
  const raw: unknown = (query as Record<string, unknown>)[name];
  if (raw === undefined || raw === null) return undefined;
  return Array.isArray(raw) ? raw.map(String).join(',') : String(raw);
}

/** `?name=YYYY-MM-DD` → the UTC midnight of that day; 400 for another shape. */
export function queryDate(query: unknown, name: string): Date | undefined {
  const raw = queryString(query, name);
  if (raw === undefined || raw === '') return undefined;
  if (!isIsoDate(raw)) throw ValidationError.of(name, 'Enter a valid date.');
  return new Date(`${raw}T00:00:00Z`);
}

/** `?name=1` / `1,2` → ids (strict, see ids.ts); 400 otherwise. */
export function queryIds(query: unknown, name: string): number[] | undefined {
  const raw = queryString(query, name);
  if (raw === undefined || raw === '') return undefined;
  const ids = raw.split(',').map((v) => strictId(v));
  const valid = ids.filter((n) => n !== null);
  if (valid.length !== ids.length) throw ValidationError.of(name, 'Enter a whole number.');
  return valid;
}

/** `?customer=ID` of an ops list: one customer, or null for all of them; 400 for another shape. */
export function opsCustomerFilter(q: unknown): number | null {
  const ids = queryIds(q, 'customer');
  if (!ids) return null;
  const [id] = ids;
  if (ids.length !== 1 || id === undefined) {
    throw ValidationError.of('customer', 'Enter one customer id.');
  }
  return id;
}

/** `?name=true|false` → boolean; 400 otherwise. */
export function queryBool(query: unknown, name: string): boolean | undefined {
  const raw = queryString(query, name);
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'true' || raw === 'True' || raw === '1') return true;
  if (raw === 'false' || raw === 'False' || raw === '0') return false;
  throw ValidationError.of(name, 'Enter a valid boolean.');
}

export const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Free text on a subject: a case-insensitive prefix of the first name, last name, "first last",
 * email or the email's domain (a leading `@` searches the domain only). Range conditions with the
 * leakproof ~>=~ / ~<~ operators so that, under RLS, the `(customer_id, search_* text_pattern_ops)`
 * indexes serve them (see the subjects table).
 */
export function subjectSearchCondition(
  term: string,
  bind: (
    name: 'search_lo' | 'search_hi' | 'search_dlo' | 'search_dhi',
    value: string,
  ) => unknown = (_, v) => v,
): SQL {
  const t = term.trim().toLowerCase();
  const range = (col: AnyColumn, lo: unknown, hi: unknown) =>
    sql`(${col} ~>=~ ${lo} and ${col} ~<~ ${hi})`;
  const domain = t.startsWith('@') ? t.slice(1) : t;
  const byDomain = range(
    subjects.searchDomain,
    bind('search_dlo', domain),
    bind('search_dhi', `${domain}\u{10FFFF}`),
  );
  if (t.startsWith('@')) return byDomain;
  const lo = bind('search_lo', t);
  const hi = bind('search_hi', `${t}\u{10FFFF}`);
  return (
    or(
      ...[subjects.searchFirst, subjects.searchLast, subjects.searchFull, subjects.searchEmail].map(
        (col) => range(col, lo, hi),
      ),
      byDomain,
    ) ?? sql`false`
  );
}
