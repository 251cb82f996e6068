import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  ilike,
  inArray,
  isNull,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Tx } from '../db/connection.js';
import { actorOf, type RouteAccess, withOpsContext, withTenant } from './access.js';
import { diffChanges, recordAudit } from './audit.js';
import type { Actor } from './context.js';
import { NotFoundError, ValidationError } from './errors.js';
import { listQuerySchema, type Page, pageOf, pageUrl } from './pagination.js';

export type Operation = 'list' | 'retrieve' | 'create' | 'update' | 'partial_update' | 'delete';

/** What a resource's hooks receive: the open transaction and who is acting. */
export interface ResourceContext {
  tx: Tx;
  actor: Actor;
  request: FastifyRequest;
  /** Runs `fn` after the transaction commits (send mail, call providers, drop caches). */
  afterCommit: (fn: () => Promise<void> | void) => void;
}

type Row<T extends PgTable> = T['$inferSelect'];
type Insert<T extends PgTable> = T['$inferInsert'];

/**
 * A DRF-style resource over one Drizzle table: list (paginated, filters, search, ordering),
 * retrieve, create (201), update/partial update (200), delete (204), each in one transaction
 * with its audit row. Hooks replace any default where a module needs its own rules.
 */
export interface ResourceDefinition<
  T extends PgTable,
  TCreate,
  TUpdate extends z.ZodObject = z.ZodObject,
> {
  /** Collection path with trailing slash, e.g. `/api/processes/`. */
  path: string;
  table: T;
  /** The id column (integers in URLs). */
  id: PgColumn;
  /** `app_label.model` for audit rows and content types. */
  contentType: string;
  /** Which operations exist (default: every one whose inputs are given). */
  operations?: readonly Operation[];
  /** Access per operation; `read` covers list/retrieve and `write` the rest, as fallbacks. */
  access: Partial<Record<Operation | 'read' | 'write', RouteAccess>>;
  /** `tenant` (default): RLS limits rows to the session customer. `ops`: cross-tenant (ops only). */
  context?: 'tenant' | 'ops';
  /** The response object: pick fields deliberately. */
  present: (row: Row<T>) => Record<string, unknown>;
  /**
   * Extra response fields for a batch of rows (one query for the page, not one per row),
   * merged into `present(row)`, in the same order as `rows`.
   */
  augment?: (ctx: ResourceContext, rows: Row<T>[]) => Promise<Record<string, unknown>[]>;
  /** Response schema of one object, for OpenAPI and serialisation. */
  output?: z.ZodType;
  repr?: (row: Row<T>) => string;
  /** Query-string filters: name → column. `a,b` means IN, an empty value means IS NULL. */
  filters?: Record<string, PgColumn>;
  search?: readonly PgColumn[];
  ordering?: Record<string, PgColumn>;
  /** e.g. `-id` (the default). */
  defaultOrdering?: string;
  /** Extra conditions on every read/write (e.g. a subject sees only its own rows). */
  where?: (ctx: ResourceContext) => SQL | undefined;
  create?: {
    body: z.ZodType<TCreate>;
    /**
     * Checks that need another context (e.g. a global uniqueness check in the ops context) run
     * here, before the transaction: never open a transaction inside another (PGlite has one
     * connection and would wait for ever).
     */
    prepare?: (request: FastifyRequest, data: TCreate) => Promise<void>;
    /** Default: insert the body (snake_case keys mapped to camelCase) with the tenant's customer_id. */
    run?: (ctx: ResourceContext, data: TCreate) => Promise<Row<T>>;
  };
  update?: {
    /** The PUT body; PATCH uses it made partial. */
    body: TUpdate;
    run?: (
      ctx: ResourceContext,
      existing: Row<T>,
      data: Partial<z.output<TUpdate>>,
    ) => Promise<Row<T>>;
  };
  remove?: {
    run?: (ctx: ResourceContext, existing: Row<T>) => Promise<void>;
  };
}

const camel = (k: string) => k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** `{a_b: 1}` → `{aB: 1}`: the default mapping of a JSON body to Drizzle insert values. */
export function toColumns(data: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [camel(k), v]));
}

function parseFilterValue(column: PgColumn, raw: string, name: string): unknown {
  if (column.dataType === 'number') {
    const n = Number(raw);
    if (!Number.isInteger(n)) throw ValidationError.of(name, 'Enter a whole number.');
    return n;
  }
  if (column.dataType === 'boolean') {
    if (raw === 'true' || raw === 'True' || raw === '1') return true;
    if (raw === 'false' || raw === 'False' || raw === '0') return false;
    throw ValidationError.of(name, 'Enter a valid boolean.');
  }
  return raw;
}

function filterConditions(
  filters: Record<string, PgColumn>,
  query: Record<string, unknown>,
): SQL[] {
  const out: SQL[] = [];
  for (const [name, column] of Object.entries(filters)) {
    const raw = query[name];
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(',') : String(raw);
    if (value === '' || value === 'null') {
      out.push(isNull(column));
    } else if (value.includes(',')) {
      out.push(
        inArray(
          column,
          value.split(',').map((v) => parseFilterValue(column, v, name)),
        ),
      );
    } else {
      out.push(eq(column, parseFilterValue(column, value, name)));
    }
  }
  return out;
}

function orderBy(
  def: { ordering?: Record<string, PgColumn>; defaultOrdering?: string },
  id: PgColumn,
  requested: string | undefined,
): SQL[] {
  const spec = requested || def.defaultOrdering || '-id';
  const out: SQL[] = [];
  for (const part of spec.split(',')) {
    const descending = part.startsWith('-');
    const name = descending ? part.slice(1) : part;
    const column = name === 'id' ? id : def.ordering?.[name];
    if (column) out.push(descending ? desc(column) : asc(column));
  }
  out.push(spec.startsWith('-') ? desc(id) : asc(id));
  return out;
}

const idParams = z.object({ id: z.string().max(20) });

function parseId(raw: string): number {
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new NotFoundError();
  return n;
}

const CONTENT_TYPES = new Set<string>();

/** Content types named by every registered resource (synced to the content_types table). */
export function registeredContentTypes(): string[] {
  return [...CONTENT_TYPES];
}

/** Registers the routes of a resource. */
export function registerResource<
  T extends PgTable,
  TCreate extends object,
  TUpdate extends z.ZodObject = z.ZodObject,
>(app: FastifyInstance, def: ResourceDefinition<T, TCreate, TUpdate>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  CONTENT_TYPES.add(def.contentType);
  const ops = new Set<Operation>(
    def.operations ??
      ([
        'list',
        'retrieve',
        ...(def.create ? (['create'] as const) : []),
        ...(def.update ? (['update', 'partial_update'] as const) : []),
        'delete',
      ] satisfies Operation[]),
  );
  const access = (op: Operation): RouteAccess =>
    def.access[op] ??
    (op === 'list' || op === 'retrieve' ? def.access.read : def.access.write) ??
    {};
  const run = async <R>(
    request: FastifyRequest,
    fn: (ctx: ResourceContext) => Promise<R>,
    readOnly = false,
  ) => {
    const actor = actorOf(request);
    const later: (() => Promise<void> | void)[] = [];
    const go = (tx: Tx) => fn({ tx, actor, request, afterCommit: (f) => later.push(f) });
    const opts = { readOnly };
    const result = await (def.context === 'ops'
      ? withOpsContext(request, go, opts)
      : withTenant(request, go, opts));
    for (const f of later) await f();
    return result;
  };
  const presentAll = async (ctx: ResourceContext, rows: Row<T>[]) => {
    const extra = def.augment ? await def.augment(ctx, rows) : [];
    return rows.map((row, i) => ({ ...def.present(row), ...extra[i] }));
  };
  const presentOne = async (ctx: ResourceContext, row: Row<T>) =>
    (await presentAll(ctx, [row]))[0] ?? def.present(row);
  const table: PgTable = def.table;
  const columns = getTableColumns(table);
  const scoped = (ctx: ResourceContext, ...conds: (SQL | undefined)[]) =>
    and(def.where?.(ctx), ...conds);
  const tag = def.contentType.split('.')[0] ?? 'resources';
  const one = def.output ?? z.record(z.string(), z.unknown());
  const repr = (row: Row<T>) => (def.repr ? def.repr(row) : '');

  async function fetchOne(ctx: ResourceContext, id: number, forUpdate = false): Promise<Row<T>> {
    const q = ctx.tx
      .select()
      .from(table)
      .where(scoped(ctx, eq(def.id, id)))
      .limit(1);
    const rows = (forUpdate ? await q.for('update') : await q) as Row<T>[];
    const row = rows[0];
    if (!row) throw new NotFoundError();
    return row;
  }

  if (ops.has('list')) {
    r.get(
      def.path,
      {
        schema: {
          tags: [tag],
          querystring: listQuerySchema,
          response: {
            200: z.object({
              count: z.number(),
              next: z.string().nullable(),
              previous: z.string().nullable(),
              results: z.array(one),
            }),
          },
        },
        config: { access: access('list') },
      },
      async (request) => {
        const query = request.query as Record<string, unknown>;
        const { page, pageSize } = pageOf(request.query);
        const result = await run(
          request,
          async (ctx) => {
            const conds: (SQL | undefined)[] = filterConditions(def.filters ?? {}, query);
            const term = request.query.search?.trim();
            if (term && def.search?.length) {
              const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
              conds.push(or(...def.search.map((c) => ilike(c, like))));
            }
            const rows = await ctx.tx
              .select({ ...columns, __total: sql<number>`count(*) over()`.mapWith(Number) })
              .from(table)
              .where(scoped(ctx, ...conds))
              .orderBy(...orderBy(def, def.id, request.query.ordering))
              .limit(pageSize)
              .offset((page - 1) * pageSize);
            if (rows.length === 0 && page > 1) throw new NotFoundError('Invalid page.');
            const count = rows[0]?.__total ?? 0;
            return { count, results: await presentAll(ctx, rows as Row<T>[]) };
          },
          true,
        );
        return pageResponse(request, def.path, page, pageSize, result.count, result.results);
      },
    );
  }

  if (ops.has('retrieve')) {
    r.get(
      `${def.path}:id/`,
      {
        schema: { tags: [tag], params: idParams, response: { 200: one } },
        config: { access: access('retrieve') },
      },
      async (request) => {
        const id = parseId(request.params.id);
        return run(request, async (ctx) => presentOne(ctx, await fetchOne(ctx, id)), true);
      },
    );
  }

  const create = def.create;
  if (ops.has('create') && create) {
    r.post(
      def.path,
      {
        schema: { tags: [tag], body: create.body, response: { 201: one } },
        config: { access: access('create') },
      },
      async (request, reply) => {
        const data = request.body as TCreate;
        if (create.prepare) await create.prepare(request, data);
        const out = await run(request, async (ctx) => {
          const row = create.run
            ? await create.run(ctx, data)
            : ((
                (await ctx.tx
                  .insert(table)
                  .values({ ...toColumns(data), customerId: ctx.actor.customerId } as Insert<T>)
                  .returning()) as Row<T>[]
              )[0] as Row<T>);
          const presented = await presentOne(ctx, row);
          await recordAudit(ctx.tx, ctx.actor, {
            verb: 'created',
            contentType: def.contentType,
            objectId: presented.id as number,
            objectRepr: repr(row),
            changes: presented,
          });
          return presented;
        });
        reply.code(201);
        return out;
      },
    );
  }

  const update = def.update;
  if (update) {
    const handler = () => async (request: FastifyRequest<{ Params: { id: string } }>) => {
      const id = parseId(request.params.id);
      const data = request.body as Partial<z.output<TUpdate>>;
      return run(request, async (ctx) => {
        const existing = await fetchOne(ctx, id, true);
        const before = await presentOne(ctx, existing);
        const row = update.run
          ? await update.run(ctx, existing, data)
          : ((
              (await ctx.tx
                .update(table)
                .set(toColumns(data) as Partial<Insert<T>>)
                .where(scoped(ctx, eq(def.id, id)))
                .returning()) as Row<T>[]
            )[0] as Row<T>);
        const after = await presentOne(ctx, row);
        await recordAudit(ctx.tx, ctx.actor, {
          verb: 'updated',
          contentType: def.contentType,
          objectId: id,
          objectRepr: repr(row),
          changes: diffChanges(before, after),
        });
        return after;
      });
    };
    if (ops.has('update')) {
      r.put(
        `${def.path}:id/`,
        {
          schema: { tags: [tag], params: idParams, body: update.body, response: { 200: one } },
          config: { access: access('update') },
        },
        handler(),
      );
    }
    if (ops.has('partial_update')) {
      r.patch(
        `${def.path}:id/`,
        {
          schema: {
            tags: [tag],
            params: idParams,
            body: update.body.partial(),
            response: { 200: one },
          },
          config: { access: access('partial_update') },
        },
        handler(),
      );
    }
  }

  if (ops.has('delete')) {
    r.delete(
      `${def.path}:id/`,
      {
        schema: { tags: [tag], params: idParams },
        config: { access: access('delete') },
      },
      async (request, reply) => {
        const id = parseId(request.params.id);
        await run(request, async (ctx) => {
          const existing = await fetchOne(ctx, id, true);
          const gone = await presentOne(ctx, existing);
          if (def.remove?.run) await def.remove.run(ctx, existing);
          else await ctx.tx.delete(table).where(scoped(ctx, eq(def.id, id)));
          await recordAudit(ctx.tx, ctx.actor, {
            verb: 'deleted',
            contentType: def.contentType,
            objectId: id,
            objectRepr: repr(existing),
            changes: gone,
          });
        });
        reply.code(204).send();
      },
    );
  }
}

/** The DRF list body. */
export function pageResponse<R>(
  request: FastifyRequest,
  path: string,
  page: number,
  pageSize: number,
  count: number,
  results: R[],
): Page<R> {
  return {
    count,
    next: page * pageSize < count ? pageUrl(request, path, page + 1) : null,
    previous: page > 1 ? pageUrl(request, path, page - 1) : null,
    results,
  };
}
