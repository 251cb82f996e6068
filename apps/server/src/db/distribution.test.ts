// Ready for a distributed PostgreSQL (issue 28): Citus distributes the tenant tables by
// `customer_id` and keeps each customer's rows of every such table on one node (co-location).
// Its rules, read here from the catalog of the migrated database, so a table added later is
// checked without an edit to this file:
//
// - every table with a `customer_id` column (a tenant table, distributed by it) has it in its
//   primary key and in every unique constraint and unique index (a node can only enforce
//   uniqueness among the rows it holds);
// - every foreign key from a tenant table to another tenant table includes `customer_id` on both
//   sides, paired with each other (the referenced row lives on the same node);
// - a foreign key from a tenant table to a table without `customer_id` is allowed: that table is a
//   reference table (copied to every node), and the tables without `customer_id` are such by
//   design, each listed below with its reason (a new one fails until it is listed on purpose);
// - a reference table refers to no tenant table (Citus refuses a foreign key from a reference
//   table to a distributed one).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GLOBAL_WITH_CUSTOMER,
  KNOWN_CITUS_EXCEPTIONS as KNOWN,
  REFERENCE_TABLES,
} from '../../test/distribution.js';
import { buildTestApp, type TestApp } from '../../test/helpers.js';

let t: TestApp;

type TableRow = {
  table: string;
  /** It has a customer_id column. */
  customer: boolean;
  /** Its customer_id column is nullable. */
  nullable: boolean;
};
type KeyRow = {
  table: string;
  name: string;
  primary: boolean;
  /** Key columns; null for an expression. */
  columns: (string | null)[];
};
type ForeignKeyRow = {
  table: string;
  name: string;
  target: string;
  columns: string[];
  targetColumns: string[];
};

let tables: TableRow[];
let uniqueKeys: KeyRow[];
let foreignKeys: ForeignKeyRow[];

beforeAll(async () => {
  t = await buildTestApp();
  tables = await t.owner((tx) =>
    tx.execute<TableRow>(sql`
      select c.relname as "table",
        a.attnum is not null as customer, coalesce(not a.attnotnull, false) as nullable
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      left join pg_attribute a on a.attrelid = c.oid and a.attname = 'customer_id'
        and not a.attisdropped
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
      order by 1`),
  );
  // Every unique index (a primary key and a unique constraint each have one), with its key
  // columns; an expression in the key gives no column name (null in the array).
  uniqueKeys = await t.owner((tx) =>
    tx.execute<KeyRow>(sql`
      select c.relname as "table", ic.relname as name, i.indisprimary as primary,
        array(select a.attname::text from unnest(i.indkey::int2[]) with ordinality k(num, ord)
              left join pg_attribute a on a.attrelid = c.oid and a.attnum = k.num
              where k.ord <= i.indnkeyatts order by k.ord) as columns
      from pg_index i
      join pg_class c on c.oid = i.indrelid
      join pg_class ic on ic.oid = i.indexrelid
      join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and i.indisunique
      order by 1, 2`),
  );
  foreignKeys = await t.owner((tx) =>
    tx.execute<ForeignKeyRow>(sql`
      select c.relname as "table", k.conname as name, f.relname as target,
        array(select a.attname::text from unnest(k.conkey) with ordinality x(num, ord)
              join pg_attribute a on a.attrelid = k.conrelid and a.attnum = x.num
              order by x.ord) as columns,
        array(select a.attname::text from unnest(k.confkey) with ordinality x(num, ord)
              join pg_attribute a on a.attrelid = k.confrelid and a.attnum = x.num
              order by x.ord) as "targetColumns"
      from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_class f on f.oid = k.confrelid
      join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and k.contype = 'f'
      order by 1, 2`),
  );
});
afterAll(() => t.close());

/** The tables Citus distributes by customer_id: every table with it, but the global ones. */
const tenantTables = () =>
  new Set(
    tables.filter((r) => r.customer && !(r.table in GLOBAL_WITH_CUSTOMER)).map((r) => r.table),
  );

/** Tenant tables whose customer_id may be NULL (Citus refuses a row without its distribution value). */
const nullableCustomer = () =>
  tables
    .filter((r) => tenantTables().has(r.table) && r.nullable)
    .map((r) => `${r.table}: customer_id is nullable`);

/** What is refused and not among the known ones. */
const unknown = (found: string[]) => found.filter((f) => !(f in KNOWN));

/** The unique keys of tenant tables that Citus would refuse (no customer_id among the columns). */
function keysWithoutCustomer(keys: KeyRow[], tenant: Set<string>): string[] {
  return keys
    .filter((k) => tenant.has(k.table) && !k.columns.includes('customer_id'))
    .map(
      (k) =>
        `${k.table}: ${k.primary ? 'primary key' : 'unique'} ${k.name} (${k.columns.map((c) => c ?? '(expression)').join(', ')})`,
    );
}

/** Foreign keys between tenant tables that do not pair customer_id with customer_id. */
function foreignKeysAcrossTenants(fks: ForeignKeyRow[], tenant: Set<string>): string[] {
  return fks
    .filter((f) => tenant.has(f.table) && tenant.has(f.target))
    .filter((f) => {
      const i = f.columns.indexOf('customer_id');
      return i < 0 || f.targetColumns[i] !== 'customer_id';
    })
    .map(
      (f) =>
        `${f.table}.${f.name} (${f.columns.join(', ')}) → ${f.target} (${f.targetColumns.join(', ')})`,
    );
}

describe('the schema is ready for Citus (tenant tables distributed by customer_id)', () => {
  it('reads the tables and their keys from the catalog', () => {
    const tenant = tenantTables();
    for (const name of ['cases', 'subjects', 'case_activities', 'audit_actions', 'flags']) {
      expect(tenant.has(name), name).toBe(true);
    }
    expect(tenant.has('customers')).toBe(false);
    expect(tenant.size).toBeGreaterThan(20);
    expect(uniqueKeys.filter((k) => k.primary).length).toBeGreaterThan(20);
    expect(foreignKeys.length).toBeGreaterThan(20);
  });

  it('every tenant table has customer_id not null and a primary key with customer_id in it', () => {
    const withPk = new Set(uniqueKeys.filter((k) => k.primary).map((k) => k.table));
    expect([...tenantTables()].filter((name) => !withPk.has(name))).toEqual([]);
    expect(unknown(nullableCustomer())).toEqual([]);
    expect(
      unknown(
        keysWithoutCustomer(
          uniqueKeys.filter((k) => k.primary),
          tenantTables(),
        ),
      ),
    ).toEqual([]);
  });

  it('every unique constraint and unique index of a tenant table includes customer_id', () => {
    expect(unknown(keysWithoutCustomer(uniqueKeys, tenantTables()))).toEqual([]);
  });

  it('every foreign key between tenant tables pairs customer_id with customer_id', () => {
    expect(unknown(foreignKeysAcrossTenants(foreignKeys, tenantTables()))).toEqual([]);
  });

  it('the known exceptions are still there (delete an entry once it is fixed)', () => {
    const found = new Set([
      ...nullableCustomer(),
      ...keysWithoutCustomer(uniqueKeys, tenantTables()),
      ...foreignKeysAcrossTenants(foreignKeys, tenantTables()),
    ]);
    expect(Object.keys(KNOWN).filter((k) => !found.has(k))).toEqual([]);
  });

  it('the tables without customer_id are the listed reference tables, each for a reason', () => {
    const reference = tables.filter((r) => !r.customer).map((r) => r.table);
    const unlisted = reference.filter((name) => !(name in REFERENCE_TABLES));
    expect(unlisted, 'a table without customer_id: add customer_id or list it here').toEqual([]);
    // and the lists name no table that is gone or has changed kind
    expect(Object.keys(REFERENCE_TABLES).filter((name) => !reference.includes(name))).toEqual([]);
    const withCustomer = tables.filter((r) => r.customer).map((r) => r.table);
    expect(
      Object.keys(GLOBAL_WITH_CUSTOMER).filter((name) => !withCustomer.includes(name)),
    ).toEqual([]);
  });

  it('no reference table refers to a tenant table', () => {
    const tenant = tenantTables();
    expect(
      foreignKeys
        .filter((f) => !tenant.has(f.table) && tenant.has(f.target))
        .map((f) => `${f.table}.${f.name} → ${f.target}`),
    ).toEqual([]);
  });

  it('the checks catch what Citus refuses', () => {
    const tenant = new Set(['a', 'b']);
    expect(
      keysWithoutCustomer(
        [
          { table: 'a', name: 'a_pkey', primary: true, columns: ['id'] },
          { table: 'a', name: 'a_ok', primary: false, columns: ['customer_id', 'x'] },
          { table: 'a', name: 'a_expr', primary: false, columns: [null] },
          { table: 'r', name: 'r_pkey', primary: true, columns: ['id'] },
        ],
        tenant,
      ),
    ).toEqual(['a: primary key a_pkey (id)', 'a: unique a_expr ((expression))']);
    expect(
      foreignKeysAcrossTenants(
        [
          { table: 'a', name: 'by_id', target: 'b', columns: ['b_id'], targetColumns: ['id'] },
          {
            table: 'a',
            name: 'crossed',
            target: 'b',
            columns: ['customer_id', 'b_id'],
            targetColumns: ['id', 'customer_id'],
          },
          {
            table: 'a',
            name: 'ok',
            target: 'b',
            columns: ['customer_id', 'b_id'],
            targetColumns: ['customer_id', 'id'],
          },
          { table: 'a', name: 'to_ref', target: 'r', columns: ['r_id'], targetColumns: ['id'] },
        ],
        tenant,
      ),
    ).toEqual(['a.by_id (b_id) → b (id)', 'a.crossed (customer_id, b_id) → b (id, customer_id)']);
  });
});
