// @postgres: the planner's choices differ between PGlite's build and a PostgreSQL server (issue 28)
//
// Every list the API runs uses an index (issue 28, "a million cases"): the app answers each list
// request on a seeded database while a recording wrapper keeps every statement it sends (the
// real query builders' SQL and values, so the test follows the code); then each SELECT is
// explained in a transaction with the same role and tenant settings and `enable_seqscan = off`,
// so the planner takes an index wherever one can serve, and a Seq Scan node over a tenant table
// (a table with customer_id) fails the test.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_WITH_CUSTOMER } from '../../test/distribution.js';
import {
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createFlag,
  createProductUser,
  createSubjectUser,
  createTestDatabase,
  login,
  ManualClock,
} from '../../test/helpers.js';
import { buildApp } from '../app.js';
import { type Database, executePreparedRows, type TxSettings, txQuery } from './connection.js';
import { drizzleOver } from './driver/tx.js';

interface Sent {
  /** The request that sent it. */
  url: string;
  settings: TxSettings;
  text: string;
  params: unknown[];
}

let current = '';
const sent: Sent[] = [];

/** `db` with every statement of its transactions and inline reads recorded in `sent`. */
function recording(db: Database): Database {
  return {
    ...db,
    transaction(settings, fn) {
      return db.transaction(settings, (tx) =>
        fn(
          drizzleOver({
            async query(text, params, rowMode) {
              sent.push({ url: current, settings, text, params });
              if (rowMode === 'array') {
                const rows = await executePreparedRows(
                  tx,
                  { getQuery: () => ({ sql: text, params }) },
                  {},
                );
                return { rows };
              }
              return txQuery(tx, text, params);
            },
          }),
        ),
      );
    },
    readInline(settings, sqlText) {
      sent.push({ url: current, settings, text: sqlText, params: [] });
      return db.readInline(settings, sqlText);
    },
    readCached(settings, sqlText, ttlMs) {
      sent.push({ url: current, settings, text: sqlText, params: [] });
      return db.readCached(settings, sqlText, ttlMs);
    },
  };
}

let app: FastifyInstance;
let db: Database;
let drop: () => Promise<void>;
let acme: number;
let other: number;
let acmeCase: number;
let acmeSubject: number;
let admin: Client;
let ops: Client;
let tenantTables: Set<string>;
/** The indexes of the tenant tables (a Bitmap Index Scan names its index, not its table). */
let tenantIndexes: Set<string>;

beforeAll(async () => {
  const test = await createTestDatabase();
  db = test.db;
  drop = test.drop;
  app = await buildApp({
    db: recording(db),
    clock: new ManualClock(new Date()),
    config: { sessionCacheMs: 5_000 },
  });
  await app.ready();
  await db.ownerTransaction(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    const names = ['Hartley', 'Byron', 'Smith', 'Jones'];
    for (const customerId of [acme, other]) {
      for (let i = 0; i < 12; i++) {
        const s = await createSubjectUser(tx, {
          customerId,
          firstName: `Ada${i}`,
          lastName: names[i % names.length] ?? 'Smith',
        });
        const c = await createCase(tx, {
          customerId,
          subjectId: s.id,
          state: i % 3 === 0 ? 'complete' : 'in-progress',
          activityStates: i % 2 === 0 ? ['ca-awaiting-ops'] : ['ca-in-progress'],
        });
        if (i % 4 === 1) await createFlag(tx, { customerId, caseId: c.id, message: 'Gap' });
        if (customerId === acme && i === 0) {
          acmeCase = c.id;
          acmeSubject = s.id;
        }
      }
    }
  });
  await db.ownerExec('analyze');
  const { rows } = await db.ownerQuery(
    `select distinct c.relname from pg_attribute a
       join pg_class c on c.oid = a.attrelid
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attname = 'customer_id'
        and not a.attisdropped`,
  );
  tenantTables = new Set(rows.map((r) => String(r.relname)));
  const indexes = await db.ownerQuery(
    `select indexname from pg_indexes where schemaname = 'public' and tablename = any($1)`,
    [[...tenantTables]],
  );
  tenantIndexes = new Set(indexes.rows.map((r) => String(r.indexname)));
  admin = await login(app, 'admin@acme.test');
  ops = await login(app, 'ops@k.test');
});

afterAll(async () => {
  await app?.close();
  await drop?.();
});

/** The lists the API runs, as a customer's administrator. */
const customerLists = (): string[] => [
  '/api/cases/?page_size=25',
  '/api/cases/?page_size=25&state=in-progress',
  '/api/cases/?page_size=25&state=in-progress&state=complete',
  '/api/cases/?page_size=25&is_archived=true',
  '/api/cases/?page_size=25&is_archived=all',
  '/api/cases/?page_size=25&search=hartley',
  '/api/cases/?page_size=25&search=ada0@',
  '/api/cases/?page_size=25&flagged=true',
  '/api/cases/?page_size=25&flagged=false',
  `/api/cases/?page_size=25&subject=${acmeSubject}`,
  '/api/cases/?page_size=25&created_after=2020-01-01&created_before=2099-01-01',
  '/api/cases/?page_size=25&ordering=created_at',
  '/api/cases/?page_size=25&ordering=-updated_at',
  '/api/cases/?page_size=25&ordering=updated_at',
  '/api/cases/?page_size=25&ordering=state',
  '/api/cases/?page_size=25&ordering=-state',
  '/api/cases/?page_size=25&ordering=last_name',
  '/api/cases/?page_size=25&ordering=-last_name',
  '/api/cases/?page=2&page_size=5',
  `/api/cases/${acmeCase}/`,
  '/api/cases/export/',
  '/api/cases/export/?state=in-progress',
  '/api/subjects/?page_size=25',
  '/api/subjects/?page_size=25&search=hartley',
  `/api/subjects/${acmeSubject}/`,
  '/api/outstanding-activities/?page_size=25',
  '/api/audit-actions/?page_size=25',
  '/api/dashboard/',
  '/api/flags/?page_size=25',
  '/api/flags/active-count/',
  `/api/case-documents/?case=${acmeCase}`,
  `/api/case-activities/?case=${acmeCase}`,
  `/api/case-addresses/?case=${acmeCase}`,
  '/api/processes/',
  '/api/users/',
];

/** The operations staff's lists across customers. */
const opsLists = (): string[] => [
  '/api/ops/cases/?page_size=25',
  '/api/ops/cases/?page_size=25&state=in-progress',
  `/api/ops/cases/?page_size=25&customer=${acme}`,
  '/api/ops/cases/?page_size=25&search=hartley',
  '/api/ops/outstanding-activities/?page_size=25',
  `/api/ops/outstanding-activities/?page_size=25&customer=${other}`,
  // the work queue's filters and the dashboard (issue 29)
  '/api/ops/outstanding-activities/?page_size=25&assignee=unassigned',
  '/api/ops/outstanding-activities/?page_size=25&past_target=true&older_than_days=1',
  '/api/ops/dashboard/',
  '/api/ops/flags/?page_size=25',
  '/api/ops/audit-actions/?page_size=25',
  `/api/ops/case-documents/?case=${acmeCase}`,
  '/api/ops/customers/?page_size=25',
  '/api/ops/trust-to-ride/sessions/?page_size=25',
  '/api/ops/trust-to-ride/unbooked-activities/?page_size=25',
  '/api/ops/portal-payments/?page_size=25',
  `/api/ops/portal-payments/?page_size=25&customer=${acme}&status=paid`,
  '/api/ops/product-payments/?page_size=25',
  `/api/ops/product-payments/?page_size=25&customer=${acme}&created_after=2026-01-01`,
];

/**
 * Cross-tenant lists of operations staff that may still read a whole table or index, and why
 * (issue 28, left for their modules): their totals count every customer's rows (a capped or
 * estimated count is the fix) or their filter has no index across customers. The test fails when
 * another list reads a whole tenant table.
 */
const OPS_WHOLE_SCANS: Record<string, string> = {
  '/api/ops/cases/?page_size=25':
    "every customer's cases in one order: alone the plan reads the page in index order under its " +
    'limit, but in the full suite (CI, PGlite) it read the whole cases index (an index-only scan ' +
    'with no condition) on the same rows',
  '/api/ops/cases/?page_size=25&search=hartley':
    "search across customers: subjects' trigram index is per customer, the total counts every match",
  '/api/ops/dashboard/':
    "the ops dashboard (issue 29): counts every customer's waiting activities by kind and age",
  '/api/ops/flags/?page_size=25': "the total counts every customer's flags",
  '/api/ops/trust-to-ride/unbooked-activities/?page_size=25':
    'unbooked trust-to-ride activities of every customer: no index on the activity type',
};

interface PlanNode {
  'Node Type'?: string;
  'Parent Relationship'?: string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

const INDEX_SCANS = new Set(['Index Scan', 'Index Only Scan', 'Bitmap Index Scan']);
/** Nodes that hand on their outer child's rows in its order, as they come (a Limit stops early). */
const STREAMING = new Set(['Limit', 'Result', 'Nested Loop', 'Subquery Scan', 'Incremental Sort']);

/**
 * The scans of `node`'s tree that read a whole relation: a Seq Scan, or an index scan with no
 * Index Cond (with seq scans off, the planner reads a whole index instead of the table). In a
 * cross-tenant list (`crossTenant`), a whole index read in its order straight under a Limit is
 * how the page is found, and stops after the page: that one is allowed (`paged`).
 */
function wholeScans(node: PlanNode, crossTenant: boolean, out: string[], paged = false) {
  const type = node['Node Type'] ?? '';
  const relation = node['Relation Name'];
  if (type === 'Seq Scan' && relation !== undefined) out.push(`${relation} (Seq Scan)`);
  if (
    INDEX_SCANS.has(type) &&
    node['Index Cond'] === undefined &&
    !(crossTenant && paged && type !== 'Bitmap Index Scan')
  ) {
    out.push(`${relation ?? node['Index Name']} (${type} without a condition)`);
  }
  for (const child of node.Plans ?? []) {
    const streams =
      (type === 'Limit' || (paged && STREAMING.has(type))) &&
      (child['Parent Relationship'] === 'Outer' || child['Parent Relationship'] === 'Subquery');
    wholeScans(child, crossTenant, out, streams);
  }
  return out;
}

/** The relation a `wholeScans` entry names (an index's name when the node names no table). */
const relationOf = (entry: string) => entry.split(' ')[0] ?? '';

/**
 * The plan of a SELECT as the request's role and tenant would run it, seq scans discouraged. A
 * cross-tenant list also has sorts discouraged: on these few rows a whole index read and a sort
 * cost about as much as the index read in the page's order, and which one the planner took
 * depended on the tables' physical size (a fresh CI template chose the sort); with sorts off it
 * reads in order wherever an index gives the order, as it does on a big table.
 */
async function planOf(s: Sent, crossTenant: boolean): Promise<PlanNode> {
  const rows = await db.transaction({ ...s.settings, readOnly: false }, async (tx) => {
    await txQuery(tx, 'set local enable_seqscan = off', []);
    if (crossTenant) await txQuery(tx, 'set local enable_sort = off', []);
    return (await txQuery(tx, `explain (format json) ${s.text}`, s.params)).rows;
  });
  const raw = rows[0]?.['QUERY PLAN'];
  const parsed: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
  const first: unknown = Array.isArray(parsed) ? parsed[0] : undefined;
  if (!first || typeof first !== 'object' || !('Plan' in first)) {
    throw new Error(`no plan for ${s.text}`);
  }
  return first.Plan as PlanNode;
}

const isSelect = (text: string) => /^\s*(select|with)\b/i.test(text) && !text.includes(';');

async function scansOf(client: Client, urls: string[]) {
  const found: { url: string; scan: string; sql: string }[] = [];
  const statuses: Record<string, number> = {};
  let explained = 0;
  for (const url of urls) {
    current = url;
    const from = sent.length;
    const res = await app.inject({ method: 'GET', url, headers: client.headers });
    statuses[url] = res.statusCode;
    const mine = sent.slice(from).filter((s) => s.url === url && isSelect(s.text));
    const seen = new Set<string>();
    for (const s of mine) {
      if (seen.has(s.text)) continue;
      seen.add(s.text);
      explained++;
      const crossTenant = s.settings.scope !== 'tenant';
      for (const scan of wholeScans(await planOf(s, crossTenant), crossTenant, [])) {
        const table = relationOf(scan);
        if (tenantTables.has(table) || tenantIndexes.has(table)) {
          found.push({ url, scan, sql: s.text.slice(0, 400) });
        }
      }
    }
  }
  current = '';
  return { found, statuses, explained };
}

/** The conditions of a plan node that can tie a relation to a customer. */
const CONDITIONS = [
  'Index Cond',
  'Recheck Cond',
  'Filter',
  'Hash Cond',
  'Merge Cond',
  'Join Filter',
  'One-Time Filter',
] as const;
type Conditioned = PlanNode &
  Partial<Record<(typeof CONDITIONS)[number], string>> & {
    'Subplan Name'?: string;
    Output?: string[];
    Plans?: Conditioned[];
  };
const conditionsOf = (node: Conditioned): string =>
  CONDITIONS.map((k) => node[k] ?? '').join(' ') +
  // a Bitmap Heap Scan's index conditions are on its Bitmap Index Scans
  (node['Node Type'] === 'Bitmap Heap Scan'
    ? (node.Plans ?? []).map((c): string => conditionsOf(c)).join(' ')
    : '');

/**
 * The scans of distributed tables (tenant tables but the global ones, GLOBAL_WITH_CUSTOMER) in a
 * plan that join rows without tying them to a customer. A scan is tied when its own conditions or
 * those of a join above it name customer_id. In each query (the statement, or an InitPlan: an
 * uncorrelated subquery) one scan may be untied: the rows start there, and everything joined to it
 * must then be tied (Citus joins only co-located rows; a join on an id alone could pair two
 * customers' rows). A SubPlan (a correlated subquery) is joined to its outer row: all its scans
 * must be tied. Returns the untied scans of each query that has more than it may.
 */
function untiedScans(node: Conditioned, distributed: Set<string>): string[] {
  const out: string[] = [];
  const text = JSON.stringify(node);
  const block = (root: Conditioned, allowed: number) => {
    const untied: string[] = [];
    // A hashed SubPlan is looked up by the values it outputs (EXPLAIN VERBOSE's Output; PostgreSQL
    // 17 names it "hashed SubPlan n" where it is used, older ones in its name): its correlation is
    // there, not in any condition.
    const name = root['Subplan Name'];
    const hashed =
      name !== undefined && (name.startsWith('hashed') || text.includes(`hashed ${name})`))
        ? (root.Output ?? []).join(' ')
        : '';
    const walk = (n: Conditioned, above: string) => {
      const type = n['Node Type'] ?? '';
      const relation = n['Relation Name'];
      const here = `${above} ${conditionsOf(n)}`;
      if (relation !== undefined && distributed.has(relation) && !here.includes('customer_id')) {
        untied.push(`${relation} (${type}: ${conditionsOf(n).trim() || 'no condition'})`);
      }
      for (const child of n.Plans ?? []) {
        if (child['Parent Relationship'] === 'InitPlan') block(child, 1);
        else if (child['Parent Relationship'] === 'SubPlan') block(child, 0);
        else if (type !== 'Bitmap Heap Scan') walk(child, here);
      }
    };
    walk(root, hashed);
    if (untied.length > allowed) out.push(...untied);
  };
  block(node, 1);
  return out;
}

/** The plan of a statement without row-level security (the superuser), the query's own conditions. */
async function planWithoutRls(s: Sent): Promise<Conditioned> {
  const rows = await db.ownerTransaction(async (tx) => {
    await txQuery(tx, "select set_config('app.customer_id', $1, true)", [
      s.settings.customerId === null ? '' : String(s.settings.customerId),
    ]);
    return (await txQuery(tx, `explain (format json, verbose) ${s.text}`, s.params)).rows;
  });
  const raw = rows[0]?.['QUERY PLAN'];
  const parsed: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
  const first: unknown = Array.isArray(parsed) ? parsed[0] : undefined;
  if (!first || typeof first !== 'object' || !('Plan' in first)) {
    throw new Error(`no plan for ${s.text}`);
  }
  return first.Plan as Conditioned;
}

/** Every list's statements whose joins between distributed tables do not pair customer_id. */
async function crossCustomerJoins(client: Client, urls: string[]) {
  const distributed = new Set([...tenantTables].filter((t) => !(t in GLOBAL_WITH_CUSTOMER)));
  const found: string[] = [];
  let joined = 0;
  for (const url of urls) {
    current = url;
    const from = sent.length;
    await app.inject({ method: 'GET', url, headers: client.headers });
    const seen = new Set<string>();
    for (const s of sent.slice(from).filter((x) => x.url === url && isSelect(x.text))) {
      if (seen.has(s.text)) continue;
      seen.add(s.text);
      const plan = await planWithoutRls(s);
      if (JSON.stringify(plan).split('"Relation Name"').length > 2) joined++;
      for (const scan of untiedScans(plan, distributed)) found.push(`${url}: ${scan}`);
    }
  }
  current = '';
  return { found, joined };
}

describe('every list query uses an index (no Seq Scan of a tenant table)', () => {
  it('finds the tenant tables and records the statements the app sends', () => {
    expect(tenantTables.has('cases')).toBe(true);
    expect(tenantTables.has('subjects')).toBe(true);
    expect(tenantTables.has('audit_actions')).toBe(true);
  });

  it("a customer's lists, filters, search, orderings, detail, dashboard and export", async () => {
    const { found, statuses, explained } = await scansOf(admin, customerLists());
    const failed = Object.entries(statuses).filter(([, code]) => code !== 200);
    expect(failed).toEqual([]);
    expect(explained).toBeGreaterThan(customerLists().length);
    expect(found.map((f) => `${f.url}: ${f.scan}`)).toEqual([]);
  });

  it("operations staff's lists across customers (known whole scans listed)", async () => {
    const { found, statuses, explained } = await scansOf(ops, opsLists());
    const failed = Object.entries(statuses).filter(([, code]) => code !== 200);
    expect(failed).toEqual([]);
    expect(explained).toBeGreaterThan(opsLists().length);
    const known = new Set(Object.keys(OPS_WHOLE_SCANS));
    expect(
      found.filter((f) => !known.has(f.url)).map((f) => `${f.url}: ${f.scan}`),
      found.map((f) => `${f.url}: ${f.scan}`).join('\n'),
    ).toEqual([]);
    // the known ones are still there (most of them read whole tables on every run)
    expect(new Set(found.map((f) => f.url)).size).toBeGreaterThanOrEqual(known.size - 1);
  });

  it("operations' outstanding list: its total and its page's sibling activities by index", async () => {
    // issue 29: the total (capped at OPS_COUNT_CAP) walks case_activities_ops_waiting_idx in the
    // page's order and stops; the siblings, in the page's statement (issue 28: no second read), are
    // read by customer and case (by case id alone they read every activity of every customer)
    const url = '/api/ops/outstanding-activities/?page_size=25';
    current = url;
    const from = sent.length;
    const res = await app.inject({ method: 'GET', url, headers: ops.headers });
    current = '';
    expect(res.statusCode).toBe(200);
    const body: { results: { case: { case_activities: unknown[] } }[] } = res.json();
    expect(body.results.length).toBeGreaterThan(0);
    for (const r of body.results) expect(r.case.case_activities.length).toBeGreaterThan(0);
    const mine = sent.slice(from).filter((s) => s.url === url && isSelect(s.text));
    // one statement: the page, its total and its siblings
    expect(mine.filter((s) => s.text.includes('"case_activities"'))).toHaveLength(1);
    const page = mine.find((s) => s.text.includes('count(*) from ('));
    if (!page) throw new Error('the list sent no page statement');
    const scans = (n: Conditioned): Conditioned[] => [n, ...(n.Plans ?? []).flatMap(scans)];
    const all = scans(await planOf(page, true));
    // the page and its total: both walk the waiting activities' index, neither a bitmap of them
    expect(
      all
        .filter((n) => n['Index Name'] === 'case_activities_ops_waiting_idx')
        .map((n) => n['Node Type']),
    ).toEqual(['Index Scan', 'Index Scan']);
    // the siblings probe case_activities_case_idx by the row's customer and case
    const sibling = all.filter((n) => n['Index Name'] === 'case_activities_case_idx');
    expect(sibling.length).toBeGreaterThan(0);
    for (const n of sibling) expect(conditionsOf(n)).toMatch(/customer_id = .*case_id = /);
    // and case_activities is read no other way
    const others = all.filter(
      (n) =>
        (n['Relation Name'] === 'case_activities' ||
          n['Index Name']?.startsWith('case_activities')) &&
        n['Index Name'] !== 'case_activities_ops_waiting_idx' &&
        n['Index Name'] !== 'case_activities_case_idx' &&
        !(
          n['Node Type'] === 'Bitmap Heap Scan' &&
          n.Plans?.[0]?.['Index Name'] === 'case_activities_case_idx'
        ),
    );
    expect(others.map((n) => `${n['Node Type']} ${n['Index Name']}`)).toEqual([]);
  });

  it("operations' outstanding list of one kind: walks that kind's index, page and total", async () => {
    // issue 29: filtered to one kind, the list walked every waiting activity in updated_at order
    // (case_activities_ops_waiting_idx) looking for that kind: a rare kind read all ~60,000 (p99
    // 3.3 s in the bench). It now walks case_activities_ops_kind_idx on that kind's type id.
    const { rows } = await db.ownerQuery(
      `select t.code from case_activities a join activity_types t on t.id = a.activity_type_id
        where a.state = 'ca-awaiting-ops' limit 1`,
    );
    const code = rows[0]?.code;
    if (typeof code !== 'string') throw new Error('no activity awaiting operations');
    const url = `/api/ops/outstanding-activities/?page_size=25&activity_type=${code}`;
    current = url;
    const from = sent.length;
    const res = await app.inject({ method: 'GET', url, headers: ops.headers });
    current = '';
    expect(res.statusCode).toBe(200);
    const body: { results: { activity_type: string }[] } = res.json();
    expect(body.results.length).toBeGreaterThan(0);
    expect(new Set(body.results.map((r) => r.activity_type))).toEqual(new Set([code]));
    const page = sent
      .slice(from)
      .find((s) => s.url === url && isSelect(s.text) && s.text.includes('count(*) from ('));
    if (!page) throw new Error('the list sent no page statement');
    const scans = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(scans)];
    const all = scans(await planOf(page, true));
    // the page and its total walk that kind's index (the page's siblings are read by case)
    expect(
      all
        .filter((n) => n['Index Name']?.startsWith('case_activities_ops_'))
        .map((n) => `${n['Node Type']} ${n['Index Name']}`),
    ).toEqual([
      'Index Scan case_activities_ops_kind_idx',
      'Index Scan case_activities_ops_kind_idx',
    ]);
  });

  /** The SELECTs one request of `client` to `url` sends, after checking it answered 200. */
  async function statementsOf(client: Client, url: string): Promise<Sent[]> {
    current = url;
    const from = sent.length;
    const res = await app.inject({ method: 'GET', url, headers: client.headers });
    current = '';
    expect(res.statusCode).toBe(200);
    return sent.slice(from).filter((s) => s.url === url && isSelect(s.text));
  }
  const nodesOf = (n: Conditioned): Conditioned[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)];

  it("a customer's outstanding activities: page and total walk the customer's-turn index", async () => {
    // issue 28: the list joined every open case of the customer (a generic plan merge-joining
    // them: ~10 s for a customer of 10,000 cases); its page and its capped total now walk
    // case_activities_outstanding_idx in the page's order and stop (sorts off, as for the
    // cross-tenant lists: on a few rows a sort of all of them costs as little)
    const url = '/api/outstanding-activities/?page_size=25';
    const page = (await statementsOf(admin, url)).find((s) => s.text.includes('count(*) from ('));
    if (!page) throw new Error('the list sent no page statement');
    const scans = nodesOf(await planOf(page, true)).filter(
      (n) => n['Relation Name'] === 'case_activities',
    );
    expect(scans.map((n) => `${n['Node Type']} ${n['Index Name']}`)).toEqual([
      'Index Scan case_activities_outstanding_idx',
      'Index Scan case_activities_outstanding_idx',
    ]);
  });

  it("a search's page counts its matches as it reads them: one pass over the matches", async () => {
    // issue 28: the total was a second join of the matching subjects' cases beside the page's
    // (both read every match: 994 of 'hartley' for the large customer of 1,000,000 cases)
    const url = '/api/cases/?page_size=25&search=hartley';
    const page = (await statementsOf(admin, url)).find((s) => s.text.includes('search_last'));
    if (!page) throw new Error('the search sent no page statement');
    // the subjects are matched once (the page's join), not once more for a total
    const matched = nodesOf(await planOf(page, false)).filter(
      (n) => n['Relation Name'] === 'subjects' && conditionsOf(n).includes('search_last'),
    );
    expect(matched.map((n) => n['Node Type'])).toHaveLength(1);
  });

  it('the export counts nothing: its rows only', async () => {
    // issue 28: a filtered export counted up to 10,001 matches besides reading them
    for (const url of [
      '/api/cases/export/?state=in-progress&created_after=2020-01-01',
      '/api/cases/export/?search=hartley',
    ]) {
      const texts = (await statementsOf(admin, url)).map((s) => s.text);
      expect(texts.some((t) => t.includes('"cases"."process_id"'))).toBe(true);
      expect(texts.filter((t) => /count\(\*\)/.test(t))).toEqual([]);
    }
  });

  it("a view's record reads the case's activities through its customer (an index, not all)", async () => {
    // issue 28: the record of a case page's or an export's view (record_views, issue 34) read
    // case_activities by case_id alone: a whole scan of every customer's activities on each case
    // detail (717 ms a view at 1,000,000 cases) and each export
    for (const url of [`/api/cases/${acmeCase}/`, '/api/cases/export/?state=in-progress']) {
      current = url;
      const from = sent.length;
      const res = await app.inject({ method: 'GET', url, headers: admin.headers });
      current = '';
      expect(res.statusCode).toBe(200);
      const insert = sent
        .slice(from)
        .find((x) => x.url === url && x.text.includes('insert into record_views'));
      if (!insert) throw new Error(`${url} recorded no view`);
      // case_activities is the big table: each scan of it is by an index led by the case's
      // customer (read from cases by id). With case_id alone the planner could only read the
      // whole index (or table) and filter it.
      const scans = nodesOf(await planOf(insert, false)).filter(
        (n) => n['Relation Name'] === 'case_activities',
      );
      expect(scans.length, insert.text).toBeGreaterThan(0);
      for (const n of scans) {
        // an index scan, or a bitmap heap scan over its index scan
        const index = n['Node Type'] === 'Bitmap Heap Scan' ? n.Plans?.[0] : n;
        expect(String(index?.['Index Cond']), insert.text).toMatch(/^\(+customer_id = /);
      }
    }
  });

  it('the check catches a sequential scan (a query no index serves)', async () => {
    const plan = await planOf(
      {
        url: 'self-check',
        settings: { scope: 'all', customerId: null },
        text: 'select id from cases where decision = $1',
        params: ['satisfactory'],
      },
      true,
    );
    expect(wholeScans(plan, true, []).map(relationOf)).toContain('cases');
  });
});

describe("no query joins two customers' rows (Citus: joins of distributed tables pair customer_id)", () => {
  it("a customer's lists and the operations staff's lists", async () => {
    const mine = await crossCustomerJoins(admin, customerLists());
    const theirs = await crossCustomerJoins(ops, opsLists());
    expect([...mine.found, ...theirs.found]).toEqual([]);
    // statements that read more than one table were checked
    expect(mine.joined).toBeGreaterThan(10);
    expect(theirs.joined).toBeGreaterThan(3);
  });

  it('the check catches a join on an id alone', async () => {
    const plan = await planWithoutRls({
      url: 'self-check',
      settings: { scope: 'all', customerId: null },
      text: 'select c.id, s.last_name from cases c join subjects s on s.id = c.subject_id where c.id = $1',
      params: [acmeCase],
    });
    expect(untiedScans(plan, tenantTables).map(relationOf).sort()).toEqual(['cases', 'subjects']);
    const tied = await planWithoutRls({
      url: 'self-check',
      settings: { scope: 'all', customerId: null },
      text:
        'select c.id, s.last_name from cases c join subjects s ' +
        'on s.customer_id = c.customer_id and s.id = c.subject_id where c.id = $1',
      params: [acmeCase],
    });
    expect(untiedScans(tied, tenantTables)).toEqual([]);
  });
});
