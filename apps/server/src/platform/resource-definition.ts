import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { RouteAccess } from './access.js';
import type { Actor } from './context.js';
import type { JsonFields } from './json-sql.js';
import type { Binder } from './resource-query.js';
import type { ServiceContext } from './service-context.js';

export type Operation = 'list' | 'retrieve' | 'create' | 'update' | 'partial_update' | 'delete';

/**
 * What a resource's hooks receive: the service context (platform/service-context.ts) and the
 * request's query string (a resource's own filters read it), never the request itself.
 */
export interface ResourceContext extends ServiceContext {
  query: Record<string, unknown>;
}

type Row<T extends PgTable> = T['$inferSelect'];

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
  /**
   * `present` as SQL (see json-sql.ts): list pages are then rendered to JSON by PostgreSQL.
   * Must give exactly what `present` gives; not combined with `augment`.
   */
  presentSql?: JsonFields;
  /**
   * How operations staff (in an ops session or not) see the rows, when it differs: e.g. without
   * the personal values of the audit trail, which stay with the customer's own staff.
   */
  opsPresent?: { present: (row: Row<T>) => Record<string, unknown>; presentSql?: JsonFields };
  /** Response schema of one object, for OpenAPI and serialisation. */
  output?: z.ZodType;
  repr?: (row: Row<T>) => string;
  /** Query-string filters: name → column. `a,b` means IN, an empty value means IS NULL. */
  filters?: Record<string, PgColumn>;
  /**
   * Further query-string parameters that `where` reads (declared in the OpenAPI document with the
   * filters); `where` parses them itself, with the API's rules.
   */
  queryParams?: z.ZodRawShape;
  search?: readonly PgColumn[];
  ordering?: Record<string, PgColumn>;
  /** e.g. `-id` (the default). */
  defaultOrdering?: string;
  /**
   * Extra conditions on every read/write (e.g. a subject sees only its own rows). Values go
   * through `b.bind` (needed with `preparedList`).
   */
  where?: (ctx: ResourceContext, b: Binder) => SQL | undefined;
  /**
   * With `presentSql`, the list query is built once per shape and prepared (a hot list): then
   * `where` must put every value through `b.bind` and its text depend only on the names bound.
   */
  preparedList?: boolean;
  create?: {
    body: z.ZodType<TCreate>;
    /**
     * Checks that need another context (e.g. a global uniqueness check in the ops context) run
     * here, before the transaction: never open a transaction inside another (PGlite has one
     * connection and would wait for ever).
     */
    prepare?: (actor: Actor, data: TCreate) => Promise<void>;
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
