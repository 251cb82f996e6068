// The fuzzer run by fuzz-1.test.ts … fuzz-4.test.ts: each file takes every FUZZ_SHARDS-th
// operation of the OpenAPI document, with its own app and database, so the four run on separate
// workers (one file of 498 operations ran past its 300 s timeout on CI's slowed machine, stop 42).

import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../src/modules/customers/customers.table.js';
import { maintenanceWindows } from '../src/platform/tables/maintenance.table.js';
import {
  anonymous,
  buildTestApp,
  type Client,
  createCase,
  createCustomer,
  createFlag,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from './helpers.js';

// A fuzzer over the served OpenAPI document: every operation it lists at run time (so a route
// added later is covered without anyone remembering to) gets REQUESTS_PER_OPERATION generated
// requests, as an anonymous visitor, a customer's administrator, a subject and ops staff, with
// malformed ids, query parameters and bodies. No answer may be a 5xx, and no error body may
// carry a stack trace or SQL. Deterministic: a seeded generator (FUZZ_SEED to try another seed);
// each failure names the seed, the request and the answer, so it can be replayed.

const REQUESTS_PER_OPERATION = 52;
/**
 * On PostgreSQL (the PostgreSQL set, decision 022) what differs is how values reach the database
 * (the driver inlines them): every probe of every operation runs there, and one in RANDOM_SHARE of
 * the random requests (the whole fuzz took 250 s there beside the browser suite, 25 s on PGlite).
 */
const ON_POSTGRES = Boolean(process.env.DATABASE_URL);
const RANDOM_SHARE = ON_POSTGRES ? 4 : 1;
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);
/** How many files share the operations (fuzz-N.test.ts). */
export const FUZZ_SHARDS = 4;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: Json[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  format?: string;
  minimum?: number;
  maximum?: number;
  nullable?: boolean;
}

interface Parameter {
  in: string;
  name: string;
  schema?: Schema;
}

interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body: Schema | null;
}

/** A small seeded generator (mulberry32): the same seed gives the same requests. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => {
    const x = xs[int(xs.length)];
    if (x === undefined) throw new Error('pick from an empty list');
    return x;
  };
  return { next, int, pick, chance: (p: number) => next() < p };
}
type Random = ReturnType<typeof random>;

/** Ids as they appear in a path: boundaries, other notations, junk. */
const BAD_IDS = [
  '0',
  '-1',
  '2147483647',
  '2147483648',
  '4294967296',
  '9007199254740991',
  '9007199254740992',
  '99999999999999999999',
  '0x10',
  '1e3',
  '00000000001',
  '1.0',
  '+1',
  ' 1',
  '1 ',
  'abc',
  '%00',
  '1%00',
  '%F0%9F%A6%85',
  '__proto__',
  'NaN',
  'Infinity',
  '-0',
];

/** Strings that have broken servers. */
const BAD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'x'.repeat(300),
  'x'.repeat(20_000),
  'Késtrel 🦅 \u202e\u200b 名前',
  '\ud800',
  "'; drop table cases; --",
  '%',
  '_',
  '\\',
  '0000-01-01',
  '0000-00-00',
  '2024-02-30',
  '9999-12-31',
  '10000-01-01',
  '0000-01-01T00:00:00Z',
  '275760-09-13T00:00:00Z',
  '1e3',
  '0x10',
  '00000000001',
  '2147483648',
  '9007199254740993',
  '-1',
  'null',
  'true',
  '__proto__',
  'constructor',
  'a@b',
  '@',
  'ädmin@exämple.test',
];

/** Numbers around the limits of the types the database stores. */
const BAD_NUMBERS = [
  0,
  -1,
  1.5,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53 - 1,
  2 ** 53,
  1e21,
  1e308,
  -1e308,
];

/** Whole bodies that are not what any route expects (raw JSON texts). */
const DEEP = 10_000;
const BAD_BODIES = [
  '',
  'null',
  '[]',
  '{}',
  '"x"',
  '0',
  '1e400',
  'true',
  '{',
  '{"a":1,}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`,
  `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`,
  '"\\u0000"',
  '{"a":"\\u0000"}',
];

/** Values of query parameters. */
const BAD_QUERY_VALUES = [
  ...BAD_IDS,
  ...BAD_STRINGS.filter((s) => s.length < 1000),
  'id',
  '-id',
  '__proto__,-id',
  'constructor',
  'toString',
  '-__proto__',
  ',',
  '-',
  'a,b,c,d,e,f,g,h,i,j,k',
  '1,2147483648',
  '1,,2',
  'true',
  'all',
];

function anyValue(r: Random, depth = 0): Json {
  switch (r.int(depth > 2 ? 4 : 6)) {
    case 0:
      return r.pick(BAD_STRINGS);
    case 1:
      return r.pick(BAD_NUMBERS);
    case 2:
      return r.pick([null, true, false]);
    case 3:
      return r.pick(BAD_IDS);
    case 4:
      return [anyValue(r, depth + 1), anyValue(r, depth + 1)];
    default:
      return { a: anyValue(r, depth + 1), id: anyValue(r, depth + 1) };
  }
}

/** A value that fits `schema` (or the sample), so that one wrong field reaches deep code. */
function plausible(r: Random, schema: Schema | undefined, sample: Json | undefined): Json {
  if (sample !== undefined && r.chance(0.5)) return sample;
  if (!schema) return sample ?? anyValue(r);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return plausible(r, r.pick(alternatives), sample);
  if (schema.enum?.length) return r.pick(schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'date-time') return new Date(Date.UTC(2031, 0, 1)).toISOString();
      if (schema.format === 'date') return '1990-04-12';
      if (schema.format === 'email') return `fuzz${r.int(1000)}@example.test`;
      return `fuzz ${r.int(1000)}`;
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 0, Math.min(schema.maximum ?? 3, 1 + r.int(3)));
    case 'boolean':
      return r.chance(0.5);
    case 'array':
      return r.chance(0.5) ? [] : [plausible(r, schema.items, undefined)];
    case 'object':
      return plausibleObject(r, schema, undefined);
    default:
      return anyValue(r);
  }
}

function plausibleObject(
  r: Random,
  schema: Schema,
  sample: Json | undefined,
): Record<string, Json> {
  const out: Record<string, Json> = {};
  const fromSample = sample && typeof sample === 'object' && !Array.isArray(sample) ? sample : {};
  const keys = new Set([...Object.keys(schema.properties ?? {}), ...Object.keys(fromSample)]);
  for (const key of keys) {
    if (key === 'id' || (!schema.required?.includes(key) && r.chance(0.2))) continue;
    out[key] = plausible(r, schema.properties?.[key], fromSample[key]);
  }
  return out;
}

/** Replaces one value somewhere in `value` (an object's field, an array's item) by a bad one. */
function mutate(r: Random, value: Json): Json {
  if (Array.isArray(value)) {
    if (value.length === 0 || r.chance(0.3)) return [...value, anyValue(r)];
    const i = r.int(value.length);
    return value.map((v, j) => (j === i ? mutate(r, v) : v));
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0 || r.chance(0.15))
      return { ...value, [r.pick(BAD_STRINGS)]: anyValue(r) };
    const key = r.pick(keys);
    if (r.chance(0.15)) {
      const { [key]: _gone, ...rest } = value;
      return rest;
    }
    return { ...value, [key]: mutate(r, value[key] ?? null) };
  }
  return anyValue(r);
}

/** Each operation of the served document (hidden routes are not in it). */
function operationsOf(doc: { paths: Record<string, Record<string, unknown>> }): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as {
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: Schema }> };
      };
      out.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return out;
}

type Role = 'anonymous' | 'customer' | 'subject' | 'ops';
const ROLES: Role[] = ['anonymous', 'customer', 'subject', 'ops'];

/** A stack frame, a source path, or SQL / database wording in an answer. */
const LEAK =
  /\bat [\w.<>]+ \(|node_modules|\.[cm]?[jt]s:\d+|\bselect\b.+\bfrom\b|\binsert into\b|\bdelete from\b|\bupdate\b.+\bset\b|syntax error|violates|\brelation "|\bcolumn "|duplicate key|out of range for type|invalid input syntax|postgres|pglite|drizzle|SQLSTATE/i;

interface Finding {
  role: Role;
  method: string;
  url: string;
  payload: string | undefined;
  status: number;
  body: string;
}

/** A response's JSON, or null when it is something else (a CSV export). */
function jsonOf(res: { headers: Record<string, unknown>; body: string }): unknown {
  if (!String(res.headers['content-type'] ?? '').includes('json')) return null;
  try {
    return JSON.parse(res.body);
  } catch {
    return null;
  }
}

let t: TestApp;
let customerId = 0;
const clients = {} as Record<Role, Client>;
const usernames = {
  customer: 'fuzz-admin@acme.test',
  subject: 'fuzz-subject@example.test',
  ops: 'fuzz-ops@kestrel.test',
};
let generation = 0;

async function setUp(app: FastifyInstance): Promise<void> {
  clients.anonymous = await anonymous(app);
  clients.customer = await login(app, usernames.customer);
  clients.subject = await login(app, usernames.subject);
  clients.ops = await login(app, usernames.ops);
}

/**
 * Undoes what a fuzzed request may have done to the fuzzer's own footing (a valid body can log
 * out, deactivate the customer or the user, open a maintenance window, change a password): the
 * customer active, no maintenance, and every role logged in again (a new user when needed).
 */
async function restore(): Promise<void> {
  await t.owner(async (tx) => {
    await tx.update(customers).set({ isActive: true }).where(eq(customers.id, customerId));
    await tx.delete(maintenanceWindows);
  });
  await t.app.deps.maintenance.changed();
  for (const role of ['customer', 'subject', 'ops'] as const) {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/accounts/check-session/',
      headers: { cookie: clients[role].cookie },
      remoteAddress: '10.0.0.1',
    });
    if (res.statusCode === 200 && (res.json() as { authenticated?: boolean }).authenticated) {
      continue;
    }
    try {
      clients[role] = await login(t.app, usernames[role]);
    } catch {
      generation += 1;
      usernames[role] = await t.owner(async (tx) => {
        const name = `fuzz-${role}-${generation}@example.test`;
        if (role === 'subject') await createSubjectUser(tx, { customerId, email: name });
        else
          await createProductUser(tx, {
            customerId: role === 'ops' ? null : customerId,
            username: name,
            roles: [role === 'ops' ? 'ops' : 'admin'],
          });
        return name;
      });
      clients[role] = await login(t.app, usernames[role]);
    }
  }
}

/** An existing object's id for `/x/{id}/...` and a sample of it (to build plausible bodies). */
async function sampleOf(path: string): Promise<{ id: string; sample: Json | undefined }> {
  const collection = path.slice(0, path.indexOf('{id}'));
  for (const role of ['customer', 'ops', 'subject'] as const) {
    const res = await t.app.inject({
      method: 'GET',
      url: collection,
      headers: { cookie: clients[role].cookie },
    });
    if (res.statusCode !== 200) continue;
    const body = jsonOf(res);
    const results =
      body && typeof body === 'object' && 'results' in body && Array.isArray(body.results)
        ? (body.results as Json[])
        : Array.isArray(body)
          ? (body as Json[])
          : [];
    const first = results[0];
    if (
      first &&
      typeof first === 'object' &&
      !Array.isArray(first) &&
      typeof first.id === 'number'
    ) {
      return { id: String(first.id), sample: first };
    }
  }
  return { id: '1', sample: undefined };
}

/** What GET answers at `path` (a profile) for the customer and the subject, merged: a template. */
async function current(path: string): Promise<Json | undefined> {
  let merged: Record<string, Json> | undefined;
  for (const role of ['customer', 'subject'] as const) {
    const res = await t.app.inject({
      method: 'GET',
      url: path,
      headers: { cookie: clients[role].cookie },
    });
    const body = res.statusCode === 200 ? jsonOf(res) : null;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      merged = { ...merged, ...(body as Record<string, Json>) };
    }
  }
  return merged;
}

/** Keys of a list's items (its filters are named after them), for query parameters. */
async function fieldNames(path: string): Promise<string[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: path,
    headers: { cookie: clients.ops.cookie },
  });
  const own = await t.app.inject({
    method: 'GET',
    url: path,
    headers: { cookie: clients.customer.cookie },
  });
  const names = new Set<string>();
  for (const r of [res, own]) {
    if (r.statusCode !== 200) continue;
    const body = jsonOf(r);
    const list =
      body && typeof body === 'object' && 'results' in body && Array.isArray(body.results)
        ? body.results
        : [];
    for (const item of list.slice(0, 3)) {
      if (item && typeof item === 'object') for (const k of Object.keys(item)) names.add(k);
    }
  }
  // `created_at` is filtered as `created_after` / `created_before`
  for (const n of [...names]) {
    if (n.endsWith('_at')) names.add(`${n.slice(0, -3)}_after`).add(`${n.slice(0, -3)}_before`);
  }
  return [...names];
}

function query(r: Random, op: Operation, extra: string[]): string {
  const params = new URLSearchParams();
  const declared = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  const names = [...declared, ...extra, 'ordering', 'page', 'page_size', 'search'];
  const n = r.int(4);
  for (let i = 0; i < n; i++) {
    const name = r.pick(names);
    params.append(name, r.pick(BAD_QUERY_VALUES));
  }
  if (r.chance(0.1)) params.append('ordering', '__proto__');
  if (r.chance(0.05)) params.append(r.pick(BAD_STRINGS).slice(0, 100), 'x');
  const text = params.toString();
  return text ? `?${text}` : '';
}

interface Body {
  payload?: string;
  type?: string;
}

function body(
  r: Random,
  op: Operation,
  sample: Json | undefined,
): { payload?: string; type?: string } {
  if (!op.body && !['POST', 'PUT', 'PATCH'].includes(op.method)) {
    return r.chance(0.1) ? { payload: r.pick(BAD_BODIES), type: 'application/json' } : {};
  }
  const roll = r.next();
  if (roll < 0.25) return { payload: r.pick(BAD_BODIES), type: 'application/json' };
  if (roll < 0.3)
    return {
      payload: 'a=1&b=\u0000',
      type: r.pick([
        'application/x-www-form-urlencoded',
        'text/plain',
        'application/xml',
        'multipart/form-data; boundary=x',
      ]),
    };
  if (roll < 0.33) return {};
  const schema = op.body ?? { type: 'object' };
  const valid =
    schema.type === 'array'
      ? [plausibleObject(r, schema.items ?? { type: 'object' }, sample)]
      : plausibleObject(r, schema, sample);
  let value: Json = valid;
  const changes = roll < 0.4 ? 0 : 1 + r.int(2);
  for (let i = 0; i < changes; i++) value = mutate(r, value);
  return { payload: JSON.stringify(value), type: 'application/json' };
}

/** Every string in `value` that `change` changes (keys kept). */
function strings(value: Json | undefined, change: (s: string) => string): Json {
  if (typeof value === 'string') return change(value);
  if (Array.isArray(value)) return value.map((v) => strings(v, change));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strings(v, change)]));
  }
  return value ?? null;
}
/** A date or date-time moved to the year 0000 (other strings kept, so the date is what fails). */
const yearZero = (s: string) => s.replace(/^\d{4}-(\d\d-\d\d)/, '0000-$1');

interface Probe {
  id: (real: string) => string;
  query: (field: string) => string;
  body: (template: Json | undefined) => Body;
}
const json = (value: Json) => ({ payload: JSON.stringify(value), type: 'application/json' });
const raw = (payload: string) => ({ payload, type: 'application/json' });
/** The first requests of each operation, once per role: the known troublemakers. */
const PROBES: Probe[] = [
  // nothing to set
  { id: (real) => real, query: () => '', body: () => json({}) },
  // ids past int4 and past 2^53, ordering by an inherited property, JSON nested 10,000 deep
  {
    id: () => '2147483648',
    query: () => '?ordering=__proto__',
    body: () => raw(`${'['.repeat(DEEP)}${']'.repeat(DEEP)}`),
  },
  {
    id: () => '9007199254740992',
    query: (field) => `?${field}=2147483648&ordering=-constructor`,
    body: () => raw(`${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`),
  },
  // the year 0000 in every string of a plausible body; NUL in the query
  {
    id: (real) => real,
    query: (field) => `?${field}=0000-01-01&search=a%00b`,
    body: (template) => json(strings(template ?? { date: '2024-01-01' }, yearZero)),
  },
  {
    id: (real) => real,
    query: (field) => `?${field}=a%00b`,
    body: (template) => json(strings(template ?? {}, () => '0000-01-01T00:00:00Z')),
  },
  // NUL in every string of a plausible body; notations that are not ids
  {
    id: () => '0x10',
    query: (field) => `?${field}=1e3`,
    body: (template) => json(strings(template ?? { a: '' }, (v) => `${v}\u0000`)),
  },
  { id: () => '00000000001', query: (field) => `?${field}=00000000001`, body: () => json([]) },
];

/** Defines the fuzz of every FUZZ_SHARDS-th operation, from the `shard`-th (1-based). */
export function defineFuzz(shard: number): void {
  beforeAll(async () => {
    t = await buildTestApp({ config: { maintenanceCacheMs: 0 } });
    await t.owner(async (tx) => {
      const acme = await createCustomer(tx, { name: 'Acme', entitlements: ['subject_dedup'] });
      customerId = acme.id;
      await createProductUser(tx, { customerId, username: usernames.customer, roles: ['admin'] });
      await createProductUser(tx, { customerId: null, username: usernames.ops, roles: ['ops'] });
      const subject = await createSubjectUser(tx, { customerId, email: usernames.subject });
      const process = await createProcess(tx, { customerId });
      const c = await createCase(tx, { customerId, processId: process.id, subjectId: subject.id });
      await createFlag(tx, { customerId, caseId: c.id });
      await createSubjectUser(tx, { customerId, email: 'twin@example.test', password: null });
      // Another customer's objects: ids that exist, but not for this customer.
      const other = await createCustomer(tx, { name: 'Other' });
      await createCase(tx, { customerId: other.id });
    });
    await setUp(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe(`fuzzing every operation of the OpenAPI document (part ${shard} of ${FUZZ_SHARDS})`, () => {
    it('answers no generated request with a 5xx, a stack trace or SQL', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json() as {
        paths: Record<string, Record<string, unknown>>;
      };
      const operations = operationsOf(doc).filter((_, i) => i % FUZZ_SHARDS === shard - 1);
      const r = random(SEED + shard);
      const histogram = new Map<number, number>();
      const findings: Finding[] = [];
      let requests = 0;
      const started = Date.now();
      const send = async (op: Operation, role: Role, url: string, b: Body, host?: string) => {
        const headers: Record<string, string> = { ...clients[role].headers };
        if (b.type) headers['content-type'] = b.type;
        if (host) headers.host = host;
        const res = await t.app.inject({
          method: op.method as 'GET',
          url,
          headers,
          ...(b.payload !== undefined ? { payload: b.payload } : {}),
          // A new address each time: the per-address login limit is not what is tested here.
          remoteAddress: `10.${(requests >> 16) & 255}.${(requests >> 8) & 255}.${requests & 255}`,
        });
        requests += 1;
        histogram.set(res.statusCode, (histogram.get(res.statusCode) ?? 0) + 1);
        if (res.statusCode >= 500 || (res.statusCode >= 400 && LEAK.test(res.body))) {
          findings.push({
            role,
            method: op.method,
            url: url.slice(0, 300),
            payload: b.payload?.slice(0, 300),
            status: res.statusCode,
            body: res.body.slice(0, 300),
          });
        }
      };
      for (const op of operations) {
        await restore();
        const withId = op.path.includes('{id}');
        const { id, sample } = withId ? await sampleOf(op.path) : { id: '', sample: undefined };
        // A body like the object it creates or changes, so that one bad value reaches deep code.
        const template =
          sample ??
          (op.method === 'POST' && !withId
            ? (await sampleOf(`${op.path}{id}`)).sample
            : ['PUT', 'PATCH'].includes(op.method)
              ? await current(op.path)
              : undefined) ??
          (op.body ? plausible(r, op.body, undefined) : undefined);
        const extra = op.method === 'GET' && !withId ? await fieldNames(op.path) : [];
        const at = (pathId: string) =>
          op.path.replace('{id}', encodeURI(pathId).replace(/%25/g, '%'));
        for (let i = 0; i < REQUESTS_PER_OPERATION; i++) {
          const role = ROLES[i % ROLES.length] ?? 'anonymous';
          const probe = PROBES[Math.floor(i / ROLES.length)];
          if (probe) {
            const field = extra.length ? (extra[i % extra.length] ?? 'page') : 'page';
            await send(op, role, at(probe.id(id)) + probe.query(field), probe.body(template));
            continue;
          }
          const pathId = r.chance(0.3) ? id : r.pick(BAD_IDS);
          const b = body(r, op, template);
          if (i % RANDOM_SHARE !== 0) continue;
          await send(
            op,
            role,
            at(pathId) + query(r, op, extra),
            b,
            r.chance(0.05) ? 'evil.example' : undefined,
          );
        }
        // Each filter a list may have (named after its items' fields) with values past its type.
        for (const [k, field] of extra.entries()) {
          for (const value of ['2147483648', '0000-01-01', '1e3', '-1']) {
            const role = k % 2 ? 'ops' : 'customer';
            await send(op, role, `${op.path}?${field}=${value}`, {});
          }
        }
      }
      const statuses = [...histogram.entries()].sort(([a], [b]) => a - b);
      // The figures for the record (quoted in release notes).
      process.stdout.write(
        `fuzz part ${shard}/${FUZZ_SHARDS}: FUZZ_SEED=${SEED} (its generator seeded ${SEED + shard}), ${operations.length} operations, ${requests} requests in ${Date.now() - started} ms; statuses ${statuses.map(([s, n]) => `${s}×${n}`).join(' ')}; ${findings.length} findings\n`,
      );
      for (const f of findings.slice(0, 60)) process.stdout.write(`${JSON.stringify(f)}\n`);
      expect(operations.length).toBeGreaterThan(50 / FUZZ_SHARDS);
      expect(requests).toBeGreaterThanOrEqual(operations.length * (ON_POSTGRES ? 20 : 50));
      expect(findings).toEqual([]);
    }, 900_000);
  });
}
