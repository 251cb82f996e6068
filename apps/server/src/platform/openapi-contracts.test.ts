import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, type TestApp } from '../../test/helpers.js';

// Walks the served OpenAPI document (so a route added later is covered without anyone
// remembering to): every operation that takes a body declares its schema, and every operation
// declares the schema of its success answer, none of them loose (`{}`, an object without
// properties, a list of those). The contracts live in @kestrel/domain (contracts/); the routes
// use them as their body, query and response schemas, so the document is exact.

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  $ref?: string;
  not?: Schema;
};
type Operation = {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};
type Doc = { paths: Record<string, Record<string, Operation>> };

/**
 * Operations allowed to go without a body or a response schema, each with its reason. An entry
 * that no longer matches a loose operation fails too (see below), so the list cannot go stale.
 */
const ALLOWED: Record<string, string> = {
  'GET /healthz': 'response: the liveness probe, outside the API (`{status}`, 200 or 503)',
  'GET /api/cases/export/': 'response: a CSV file download, not JSON',
  'POST /api/accounts/logout/': 'body: takes none (ends the session)',
  'POST /api/cases/{id}/archive/': 'body: an action that takes none',
  'POST /api/cases/{id}/send-reminder/': 'body: an action that takes none',
  'POST /api/cases/{id}/log-pdf-generation/': 'body: an action that takes none',
  'POST /api/subjects/{id}/archive/': 'body: an action that takes none',
  'PATCH /api/user/totp-generate/': 'body: takes none (the server makes the secret)',
};

const BODY_METHODS = new Set(['post', 'put', 'patch']);

/** Why a schema says nothing about its value, or null when it describes it. */
function looseness(s: Schema | undefined): string | null {
  if (!s) return 'absent';
  if (s.$ref || s.not) return null;
  const union = s.anyOf ?? s.oneOf ?? s.allOf;
  if (union) {
    const bad = union.map(looseness).find((r) => r !== null);
    return bad ? `a branch is ${bad}` : null;
  }
  if (Object.keys(s).length === 0) return 'any value ({})';
  if (s.type === 'array') {
    const items = looseness(s.items);
    return items ? `a list of ${items}` : null;
  }
  if (s.type === 'object' || s.properties || s.additionalProperties !== undefined) {
    const props = Object.keys(s.properties ?? {}).length;
    const extra = s.additionalProperties;
    const typedExtra = typeof extra === 'object' && Object.keys(extra).length > 0;
    if (props === 0 && !typedExtra) return 'an object of anything';
    if (props > 0 && s.properties?.results && s.properties.count) {
      const items = looseness(s.properties.results.items);
      return items ? `a page of ${items}` : null;
    }
  }
  return null;
}

/** Every loose or absent body and success answer of the document: `METHOD /path: why`. */
export function looseOperations(doc: Doc): Map<string, string> {
  const found = new Map<string, string>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const key = `${method.toUpperCase()} ${path}`;
      const why: string[] = [];
      if (BODY_METHODS.has(method)) {
        const body = looseness(op.requestBody?.content?.['application/json']?.schema);
        if (body) why.push(`body: ${body}`);
      }
      const success = Object.entries(op.responses ?? {}).filter(([code]) => /^2\d\d$/.test(code));
      if (success.length === 0) why.push('response: no 2xx answer declared');
      for (const [code, answer] of success) {
        // A 204 has no content by definition; any other success answer is JSON with a schema.
        if (code === '204') {
          if (answer.content) why.push('response: a 204 with content');
          continue;
        }
        const r = looseness(answer.content?.['application/json']?.schema);
        if (r) why.push(`response ${code}: ${r}`);
      }
      if (why.length > 0) found.set(key, why.join('; '));
    }
  }
  return found;
}

// Deliberately loose routes: the walk must find each of them.
const looseRoutes = {
  name: 'openapi-loose-test',
  routes: async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const open = { access: { audience: 'public' as const } };
    const ok = z.strictObject({ ok: z.boolean() });
    r.post(
      '/api/test-loose/body/',
      { schema: { body: z.looseObject({}), response: { 200: ok } }, config: open },
      async () => ({ ok: true }),
    );
    r.put(
      '/api/test-loose/list-body/',
      { schema: { body: z.array(z.any()), response: { 200: ok } }, config: open },
      async () => ({ ok: true }),
    );
    r.post('/api/test-loose/no-body/', { schema: { response: { 200: ok } }, config: open }, () => ({
      ok: true,
    }));
    r.get('/api/test-loose/no-answer/', { config: open }, async () => ({ ok: true }));
    r.get(
      '/api/test-loose/page/',
      {
        schema: {
          response: {
            200: z.object({ count: z.number(), results: z.array(z.record(z.string(), z.any())) }),
          },
        },
        config: open,
      },
      async () => ({ count: 0, results: [] }),
    );
  },
};

let t: TestApp;
let doc: Doc;

beforeAll(async () => {
  t = await buildTestApp({ extraModules: [looseRoutes] });
  doc = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
});
afterAll(() => t.close());

describe('the OpenAPI document', () => {
  it('finds loose and missing schemas (the walk itself)', () => {
    const found = looseOperations(doc);
    expect(Object.fromEntries([...found].filter(([k]) => k.includes('/api/test-loose/')))).toEqual({
      'POST /api/test-loose/body/': 'body: an object of anything',
      'PUT /api/test-loose/list-body/': 'body: a list of any value ({})',
      'POST /api/test-loose/no-body/': 'body: absent',
      'GET /api/test-loose/no-answer/': 'response 200: absent',
      'GET /api/test-loose/page/': 'response 200: a page of an object of anything',
    });
  });

  it('declares the body and the success answer of every operation (allow list aside)', () => {
    const found = looseOperations(doc);
    const unexpected = [...found].filter(
      ([k]) => !k.includes('/api/test-loose/') && ALLOWED[k] === undefined,
    );
    expect(Object.fromEntries(unexpected)).toEqual({});
    // Every allowed exception is still one (and still exists): the list cannot go stale.
    const stale = Object.keys(ALLOWED).filter((k) => !found.has(k));
    expect(stale).toEqual([]);
  });

  it('has strict response objects: a field the contract does not list is not allowed', () => {
    const open: string[] = [];
    const visit = (where: string, s: Schema | undefined) => {
      if (!s) return;
      for (const branch of s.anyOf ?? s.oneOf ?? []) visit(where, branch);
      if (s.type === 'array') visit(where, s.items);
      if (s.properties) {
        const isPage = s.properties.results !== undefined && s.properties.count !== undefined;
        if (isPage) visit(where, s.properties.results?.items);
        else if (s.additionalProperties !== false) open.push(where);
      }
    };
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (path.startsWith('/api/test-loose/')) continue;
      for (const [method, op] of Object.entries(ops)) {
        for (const [code, answer] of Object.entries(op.responses ?? {})) {
          if (!/^2\d\d$/.test(code)) continue;
          visit(
            `${method.toUpperCase()} ${path} ${code}`,
            answer.content?.['application/json']?.schema,
          );
        }
      }
    }
    expect(open).toEqual([]);
  });
});
