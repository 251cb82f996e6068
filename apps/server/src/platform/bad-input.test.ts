import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../test/helpers.js';
import {
  findProblem,
  jsonDepth,
  MAX_JSON_DEPTH,
  NUL_MESSAGE,
  parseJsonText,
} from './body-parsing.js';
import { ValidationError } from './errors.js';
import { strictId, strictWhole } from './ids.js';

// Each input a fuzzer found answering 500 (or accepted when it should not be): now a 400 in the
// API's error shape, or a 404 for an id that cannot exist.

let t: TestApp;
let admin: Client;
let ops: Client;
let subject: Client;
let customerId = 0;
let caseId = 0;

beforeAll(async () => {
  t = await buildTestApp({ config: { publicUrl: 'https://kestrel.example' } });
  await t.owner(async (tx) => {
    customerId = (await createCustomer(tx, { name: 'Acme' })).id;
    await createProductUser(tx, { customerId, username: 'admin@acme.test', roles: ['admin'] });
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    const s = await createSubjectUser(tx, { customerId, email: 'sam@example.test' });
    const p = await createProcess(tx, { customerId });
    caseId = (await createCase(tx, { customerId, processId: p.id, subjectId: s.id })).id;
    for (let i = 0; i < 3; i++) await createCase(tx, { customerId, processId: p.id });
  });
  admin = await login(t.app, 'admin@acme.test');
  ops = await login(t.app, 'ops@k.test');
  subject = await login(t.app, 'sam@example.test');
});
afterAll(async () => {
  await t.close();
});

const get = (c: Client, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...c.headers, ...headers } });
const send = (c: Client, method: 'POST' | 'PUT' | 'PATCH', url: string, payload: string) =>
  t.app.inject({
    method,
    url,
    payload,
    headers: { ...c.headers, 'content-type': 'application/json' },
  });

describe('ids', () => {
  it('reads only plain decimal ids within range', () => {
    expect(['1', '42', '2147483647'].map((s) => strictId(s))).toEqual([1, 42, 2147483647]);
    for (const bad of ['0', '-1', '0x10', '1e3', '00000000001', '1.0', ' 1', '+1', '2147483648']) {
      expect(strictId(bad)).toBeNull();
    }
    expect(strictId('9007199254740991', Number.MAX_SAFE_INTEGER)).toBe(9007199254740991);
    expect(strictId('9007199254740992', Number.MAX_SAFE_INTEGER)).toBeNull();
    expect(strictWhole('-5')).toBe(-5);
    expect(strictWhole('-0')).toBeNull();
  });

  it('answers 404 for an id past int4 or 2^53, and for other notations of an id', async () => {
    for (const id of ['2147483648', '9007199254740991', '9007199254740992', '0x10', '1e3']) {
      const res = await get(admin, `/api/cases/${id}/`);
      expect([id, res.statusCode, res.json()]).toEqual([id, 404, { detail: 'Not found.' }]);
    }
    // 00000000001 is not case 1 (its one spelling is "1")
    const padded = String(caseId).padStart(11, '0');
    expect((await get(admin, `/api/cases/${padded}/`)).statusCode).toBe(404);
    expect((await get(admin, `/api/cases/${caseId}/`)).statusCode).toBe(200);
    // the generic resource router too
    expect((await get(admin, '/api/processes/2147483648/')).statusCode).toBe(404);
    expect((await get(admin, '/api/processes/1e0/')).statusCode).toBe(404);
  });

  it('answers 400 for an integer filter past its type', async () => {
    for (const url of [
      '/api/cases/?process=2147483648',
      '/api/cases/?subject=1,2147483648',
      '/api/case-activities/?case=9007199254740993',
    ]) {
      const res = await get(admin, url);
      expect([url, res.statusCode]).toEqual([url, 400]);
      expect(Object.values(res.json()).flat()).toEqual(['Enter a whole number.']);
    }
    const ids = await get(ops, '/api/ops/audit-actions/?customer=2147483648');
    expect(ids.statusCode).toBe(400);
  });

  it('answers 400 for an id in a body past int4', async () => {
    const res = await send(ops, 'POST', '/api/ops/session/', '{"customer":2147483648}');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ customer: ['Invalid pk - object does not exist.'] });
    const big = await send(admin, 'POST', '/api/cases/', '{"process":9007199254740991}');
    expect([big.statusCode, big.json()]).toEqual([
      400,
      { process: ['Invalid pk - object does not exist.'] },
    ]);
  });
});

describe('ordering', () => {
  it('ignores names that are not its own columns (__proto__, constructor)', async () => {
    for (const url of [
      '/api/cases/?ordering=__proto__',
      '/api/subjects/?ordering=-constructor',
      '/api/case-activities/?ordering=toString',
      '/api/processes/?ordering=__proto__',
      '/api/audit-actions/?ordering=__proto__,-id',
    ]) {
      const res = await get(admin, url);
      expect([url, res.statusCode]).toEqual([url, 200]);
    }
  });
});

describe('NUL characters', () => {
  it('are refused in a JSON body, naming the field', async () => {
    const res = await send(admin, 'POST', '/api/processes/', '{"name":"a\\u0000b"}');
    expect([res.statusCode, res.json()]).toEqual([400, { name: [NUL_MESSAGE] }]);
    const nested = await send(
      admin,
      'PUT',
      `/api/processes/1/requirements/`,
      '[{"activity_type":"dbs-basic","config":{"x":"\\u0000"}}]',
    );
    expect([nested.statusCode, nested.json()]).toEqual([400, { '0.config.x': [NUL_MESSAGE] }]);
    const anon = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      payload: '{"username":"admin@acme.test\\u0000","password":"x"}',
    });
    expect([anon.statusCode, anon.json()]).toEqual([400, { username: [NUL_MESSAGE] }]);
  });

  it('are refused in the query string', async () => {
    const res = await get(admin, '/api/subjects/?search=a%00b');
    expect([res.statusCode, res.json()]).toEqual([400, { search: [NUL_MESSAGE] }]);
    const filter = await get(admin, '/api/content-types/?model=a%00');
    expect([filter.statusCode, filter.json()]).toEqual([400, { model: [NUL_MESSAGE] }]);
  });
});

describe('updates with nothing to set', () => {
  it('answer 200 with the object unchanged', async () => {
    const me = await get(admin, '/api/user/');
    const put = await send(admin, 'PUT', '/api/user/', '{}');
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual(me.json());
    const subjectPut = await send(subject, 'PUT', '/api/user/', '{}');
    expect(subjectPut.statusCode).toBe(200);

    const before = await get(ops, `/api/ops/customers/${customerId}/`);
    const patch = await send(ops, 'PATCH', `/api/ops/customers/${customerId}/`, '{}');
    expect([patch.statusCode, patch.json()]).toEqual([200, before.json()]);
  });
});

describe('the year 0000', () => {
  it('is not a date in a query, a profile or a maintenance window', async () => {
    for (const url of [
      '/api/subjects/?dob=0000-01-01',
      '/api/cases/?created_after=0000-01-01',
      '/api/audit-actions/?created_before=0000-12-31',
    ]) {
      const res = await get(admin, url);
      expect([url, res.statusCode, Object.values(res.json()).flat()]).toEqual([
        url,
        400,
        ['Enter a valid date.'],
      ]);
    }
    const profile = await send(subject, 'PUT', '/api/user/', '{"dob":"0000-04-12"}');
    expect([profile.statusCode, profile.json()]).toEqual([400, { dob: ['Invalid date'] }]);
    const window = await send(
      ops,
      'POST',
      '/api/ops/maintenance-windows/',
      JSON.stringify({
        start: '0000-01-01T00:00:00Z',
        end: '0000-01-02T00:00:00Z',
        warning_start: '0001-01-01T00:00:00+01:00',
      }),
    );
    expect(window.statusCode).toBe(400);
    expect(window.json()).toEqual({
      start: ['Invalid date'],
      end: ['Invalid date'],
      warning_start: ['Invalid date'],
    });
  });
});

describe('the year 9999', () => {
  it('is the last day of a date range: everything before it, never a 500', async () => {
    for (const [client, url] of [
      [admin, '/api/cases/?created_before=9999-12-31'],
      [admin, '/api/audit-actions/?created_before=9999-12-31'],
      [ops, '/api/ops/cases/?created_before=9999-12-31'],
      [ops, '/api/ops/audit-actions/?created_before=9999-12-31'],
    ] as const) {
      const all = await get(client, url.replace(/[?&]created_before=[^&]*/, ''));
      const res = await get(client, url);
      expect([url, res.statusCode, res.json().count]).toEqual([url, 200, all.json().count]);
    }
  });
});

describe('deep JSON', () => {
  it('is refused before it is parsed', async () => {
    expect(jsonDepth('{"a":[1,{"b":"[[[["}]}')).toBe(3);
    for (const payload of [
      `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
      `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
    ]) {
      const res = await send(admin, 'POST', '/api/processes/', payload);
      expect([res.statusCode, res.json()]).toEqual([
        400,
        { non_field_errors: [`JSON nested deeper than ${MAX_JSON_DEPTH} levels.`] },
      ]);
    }
    // nesting within the limit still parses
    const ok = await send(admin, 'PUT', '/api/user/', '{"notifications":{"a":[[["x"]]]}}');
    expect(ok.statusCode).not.toBe(500);
    expect(ok.json()).not.toHaveProperty('non_field_errors');
  });
});

describe('the one body parser', () => {
  it('walks a parsed value without recursion, and refuses prototype poisoning as Fastify did', async () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findProblem(deep)).toEqual({
      path: '0.'.repeat(100_000).slice(0, -1),
      message: NUL_MESSAGE,
    });
    expect(() => parseJsonText('{"a":{"__proto__":{"isAdmin":true}}}')).toThrow(ValidationError);
    expect(() => parseJsonText('{"constructor":{"prototype":{"x":1}}}')).toThrow(ValidationError);
    expect(parseJsonText('{"constructor":"a name","b":["__proto__"]}')).toEqual({
      constructor: 'a name',
      b: ['__proto__'],
    });
    const res = await send(admin, 'POST', '/api/processes/', '{"__proto__":{"x":1}}');
    expect([res.statusCode, res.json()]).toEqual([400, { non_field_errors: ['Malformed JSON.'] }]);
  });
});

describe('pagination links', () => {
  it('are built on PUBLIC_URL, never on the Host header', async () => {
    const res = await get(admin, '/api/cases/?page_size=1&page=2', { host: 'evil.example' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.next).toBe('https://kestrel.example/api/cases/?page_size=1&page=3');
    expect(body.previous).toBe('https://kestrel.example/api/cases/?page_size=1&page=1');
    const generic = await get(admin, '/api/processes/?page_size=1', { host: 'evil.example' });
    expect(generic.json().next ?? '').not.toContain('evil.example');
  });
});
