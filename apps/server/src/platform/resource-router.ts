import { noContent, resourceListFilters } from '@kestrel/domain';
import { and, eq, getTableColumns, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { compileDb, executePrepared, type Tx } from '../db/connection.js';
import { actorOf, type RouteAccess } from './access.js';
import { diffChanges, recordAudit } from './audit.js';
import { NotFoundError } from './errors.js';
import { maxOf } from './ids.js';
import { type JsonFields, jsonText, pageJson } from './json-sql.js';
import {
  cappedCount,
  listPage,
  PreparedShapes,
  pageResponse,
  parseOrdering,
  totalColumn,
} from './list-builder.js';
import { listQuerySchema, pageSchema } from './pagination.js';
import type { Operation, ResourceContext, ResourceDefinition } from './resource-definition.js';
import {
  filterConditions,
  idParams,
  inlineBinder,
  parseId,
  placeholderBinder,
  toColumns,
} from './resource-query.js';
import { runInOps, runInTenant } from './service-context.js';

export type { Operation, ResourceContext, ResourceDefinition } from './resource-definition.js';

/**
 * A list's query string as the OpenAPI document declares it: page, page_size, search, ordering,
 * and the resource's own filters and parameters (each read by their parsers, with the API's
 * messages). Typed as the common part, which is all the router itself reads.
 */
function listQueryOf(
  def: Pick<ResourceDefinition<PgTable, unknown>, 'filters' | 'queryParams'>,
): typeof listQuerySchema {
  const declared: typeof listQuerySchema = listQuerySchema.extend({
    ...resourceListFilters(Object.keys(def.filters ?? {})),
    ...def.queryParams,
  }) as typeof listQuerySchema;
  return declared;
}

export { pageResponse, toColumns };

type Row<T extends PgTable> = T['$inferSelect'];
type Insert<T extends PgTable> = T['$inferInsert'];

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
  const deps = app.deps;
  const runner = def.context === 'ops' ? runInOps : runInTenant;
  const run = <R>(
    request: FastifyRequest,
    fn: (ctx: ResourceContext) => Promise<R>,
    readOnly = false,
  ) => {
    const query = request.query as Record<string, unknown>;
    return runner(deps, actorOf(request), (ctx) => fn({ ...ctx, query }), { readOnly });
  };
  /** The presenter of this actor's rows: operations staff may see less (`opsPresent`). */
  const presenterOf = (ctx: ResourceContext) =>
    ctx.actor.isOps && def.opsPresent ? def.opsPresent : def;
  const presentAll = async (ctx: ResourceContext, rows: Row<T>[]) => {
    const extra = def.augment ? await def.augment(ctx, rows) : [];
    const { present } = presenterOf(ctx);
    return rows.map((row, i) => ({ ...present(row), ...extra[i] }));
  };
  const presentOne = async (ctx: ResourceContext, row: Row<T>) =>
    (await presentAll(ctx, [row]))[0] ?? presenterOf(ctx).present(row);
  const table: PgTable = def.table;
  const columns = getTableColumns(table);
  const scoped = (ctx: ResourceContext, ...conds: (SQL | undefined)[]) =>
    and(def.where?.(ctx, inlineBinder), ...conds);
  const tag = def.contentType.split('.')[0] ?? 'resources';
  const one = def.output ?? z.record(z.string(), z.unknown());
  const repr = (row: Row<T>) => (def.repr ? def.repr(row) : '');
  if (def.presentSql && def.augment) throw new Error(`${def.path}: presentSql with augment`);
  const jsonFields = def.presentSql;
  const idMax = maxOf(def.id);

  /**
   * A page of rows as JSON texts with the total (`presentSql`; the total as a scalar subquery,
   * as below); limit/offset may be placeholders.
   */
  function jsonPage(
    db: Tx,
    where: SQL | undefined,
    order: SQL[],
    limit: number | Placeholder,
    offset: number | Placeholder,
    fields: JsonFields | undefined = jsonFields,
  ) {
    if (!fields) throw new Error(`${def.path}: no presentSql`);
    const total = cappedCount(db.select({ one: sql`1` }).from(table).where(where));
    return db
      .select({ j: jsonText(fields), n: totalColumn(total) })
      .from(table)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset);
  }
  type PreparedJsonList = ReturnType<ReturnType<typeof jsonPage>['prepare']>;
  const preparedLists = new PreparedShapes<PreparedJsonList>(`${def.path}:`);
  /** The list query of this shape, built once on compileDb and prepared. */
  function preparedJsonList(
    shape: string[],
    where: SQL | undefined,
    order: SQL[],
    fields: JsonFields | undefined,
  ) {
    const variant = fields === jsonFields ? '' : 'ops|';
    return preparedLists.get(`${variant}${shape.join(',')}`, (name) =>
      jsonPage(
        compileDb,
        where,
        order,
        sql.placeholder('limit'),
        sql.placeholder('offset'),
        fields,
      ).prepare(name),
    );
  }
  const orderingRule = {
    fields: def.ordering ?? {},
    id: def.id,
    fallback: def.defaultOrdering || '-id',
  };

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
          querystring: listQueryOf(def),
          response: {
            200: pageSchema(one),
          },
        },
        config: { access: access('list') },
      },
      async (request, reply) => {
        const query = request.query as Record<string, unknown>;
        const { page, pageSize, offset } = listPage(request.query);
        const result = await run(
          request,
          async (ctx) => {
            const b = def.preparedList ? placeholderBinder() : null;
            const binder = b ?? inlineBinder;
            const conds: (SQL | undefined)[] = filterConditions(def.filters ?? {}, query, binder);
            const term = request.query.search?.trim();
            if (term && def.search?.length) {
              const like = binder.bind('search', `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
              conds.push(or(...def.search.map((c) => sql`${c} ilike ${like}`)));
            }
            const where = and(def.where?.(ctx, binder), ...conds);
            const ordering = parseOrdering(request.query.ordering, orderingRule);
            binder.mark(`order:${ordering.key}`);
            const order = ordering.order;
            if (jsonFields) {
              const fields = presenterOf(ctx).presentSql ?? jsonFields;
              const texts = b
                ? await executePrepared(ctx.tx, preparedJsonList(b.shape, where, order, fields), {
                    ...b.values,
                    limit: pageSize,
                    offset,
                  })
                : await jsonPage(ctx.tx, where, order, pageSize, offset, fields);
              if (texts.length === 0 && page > 1) throw NotFoundError.page();
              return { count: texts[0]?.n ?? 0, json: texts.map((t) => t.j) };
            }
            // The total as an uncorrelated scalar subquery (totalColumn), not count(*) over().
            const total = cappedCount(ctx.tx.select({ one: sql`1` }).from(table).where(where));
            const rows = await ctx.tx
              .select({ ...columns, __total: totalColumn(total) })
              .from(table)
              .where(where)
              .orderBy(...order)
              .limit(pageSize)
              .offset(offset);
            if (rows.length === 0 && page > 1) throw NotFoundError.page();
            const count = rows[0]?.__total ?? 0;
            return { count, results: await presentAll(ctx, rows as Row<T>[]) };
          },
          true,
        );
        if (result.json !== undefined) {
          // Already JSON: sent as it is, not parsed and serialised again.
          const body = pageResponse(request, def.path, page, pageSize, result.count, [], true);
          // The response schema types `send` as an object; this payload is its JSON text.
          const raw: FastifyReply = reply;
          return raw
            .type('application/json; charset=utf-8')
            .send(pageJson(body.count, body.next, body.previous, result.json, body.count_capped));
        }
        return pageResponse(request, def.path, page, pageSize, result.count, result.results, true);
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
        const id = parseId(request.params.id, idMax);
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
        if (create.prepare) await create.prepare(actorOf(request), data);
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
      const id = parseId(request.params.id, idMax);
      const data = request.body as Partial<z.output<TUpdate>>;
      return run(request, async (ctx) => {
        const existing = await fetchOne(ctx, id, true);
        const before = await presentOne(ctx, existing);
        const values = toColumns(data);
        // Nothing to set (an empty PATCH): the object as it is, as DRF answers.
        const row = update.run
          ? await update.run(ctx, existing, data)
          : Object.keys(values).length === 0
            ? existing
            : ((
                (await ctx.tx
                  .update(table)
                  .set(values as Partial<Insert<T>>)
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
        schema: { tags: [tag], params: idParams, response: { 204: noContent } },
        config: { access: access('delete') },
      },
      async (request, reply) => {
        const id = parseId(request.params.id, idMax);
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
