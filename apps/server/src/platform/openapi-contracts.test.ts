import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, createTestDatabase, ManualClock, type TestApp } from '../../test/helpers.js';
import { buildApp } from '../app.js';
import { discoverModules } from '../modules/discover.js';
import type { KestrelModule } from './module.js';
import { pageSchema } from './pagination.js';

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
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};
type Doc = { paths: Record<string, Record<string, Operation>> };

/**
 * Operations allowed to go without a body or a response schema, each with its reason. An entry
 * that no longer matches a loose operation fails too (see below), so the list cannot go stale.
 */
const ALLOWED: Record<string, string> = {
  'GET /api/cases/export/': 'response: a CSV file download, not JSON',
  'GET /api/expiry-calendar/export/': 'response: a CSV file download, not JSON',
  'POST /api/ops/imports/': 'body: a multipart upload (the file and its fields), streamed',
  'POST /api/ops/imports/{id}/validate/': 'body: an action that takes none',
  'POST /api/ops/imports/{id}/run/': 'body: an action that takes none',
  'GET /api/ops/imports/{id}/report/': "response: a CSV file download (the rows' outcomes)",
  'POST /api/accounts/logout/': 'body: takes none (ends the session)',
  'POST /api/cases/{id}/archive/': 'body: an action that takes none',
  'POST /api/cases/{id}/send-reminder/': 'body: an action that takes none',
  'POST /api/cases/{id}/resend-invitation/': 'body: an action that takes none',
  'POST /api/ops/jobs/{id}/retry/': 'body: an action that takes none',
  'POST /api/ops/jobs/{id}/discard/': 'body: an action that takes none',
  'POST /api/cases/{id}/log-pdf-generation/': 'body: an action that takes none',
  'POST /api/subjects/{id}/archive/': 'body: an action that takes none',
  'POST /api/subjects/{id}/resend-invitation/': 'body: an action that takes none',
  'POST /api/case-dbs-details/{id}/countersign/': 'body: an action that takes none',
  'POST /api/ops/case-dbs-details/{id}/countersign/': 'body: an action that takes none',
  'POST /api/case-activities/{id}/request-adult-first/': 'body: an action that takes none',
  'POST /api/ops/case-activities/{id}/request-adult-first/': 'body: an action that takes none',
  'POST /api/s/case-online-idv/{id}/start/': 'body: an action that takes none',
  'POST /api/s/case-online-idv/{id}/refresh/': 'body: an action that takes none',
  'PATCH /api/user/totp-generate/': 'body: takes none (the server makes the secret)',
  'POST /api/case-addresses/os-datahub-token/': 'body: takes none (the server holds the key)',
  'POST /api/ops/case-addresses/os-datahub-token/': 'body: takes none (the server holds the key)',
  'POST /api/s/case-addresses/os-datahub-token/': 'body: takes none (the server holds the key)',
  'POST /api/case-documents/':
    'body: a multipart upload (files and fields), read by @fastify/multipart',
  'POST /api/case-documents/{id}/pages/': 'body: a multipart upload of pages',
  'PUT /api/case-documents/{id}/': 'body: a multipart upload replacing the pages',
  'GET /api/case-documents/{id}/download/':
    'response: the stored file itself (its own content type)',
  'GET /api/case-documents/{id}/thumbnail/': 'response: a JPEG thumbnail',
  'POST /api/ops/case-documents/':
    'body: a multipart upload (files and fields), read by @fastify/multipart',
  'POST /api/ops/case-documents/{id}/pages/': 'body: a multipart upload of pages',
  'PUT /api/ops/case-documents/{id}/': 'body: a multipart upload replacing the pages',
  'GET /api/ops/case-documents/{id}/download/':
    'response: the stored file itself (its own content type)',
  'GET /api/ops/case-documents/{id}/thumbnail/': 'response: a JPEG thumbnail',
  'POST /api/s/case-documents/':
    'body: a multipart upload (files and fields), read by @fastify/multipart',
  'POST /api/s/case-documents/{id}/pages/': 'body: a multipart upload of pages',
  'PUT /api/s/case-documents/{id}/': 'body: a multipart upload replacing the pages',
  'GET /api/s/case-documents/{id}/download/':
    'response: the stored file itself (its own content type)',
  'GET /api/s/case-documents/{id}/thumbnail/': 'response: a JPEG thumbnail',
  'POST /api/s/case-portal/{id}/submit/': 'body: an action that takes none',
  'POST /api/s/consents/{id}/withdraw/': 'body: an action that takes none',
  // issue 30: saved cards and a case's payment
  'POST /api/payment-methods/setup-intent/': 'body: takes none (the server makes the setup intent)',
  'POST /api/payment-methods/{id}/set-default/': 'body: an action that takes none',
  'POST /api/cases/{id}/retry-payment/': 'body: an action that takes none',
  'POST /api/subscriptions/{id}/pause/': 'body: an action that takes none',
  'POST /api/subscriptions/{id}/resume/': 'body: an action that takes none',
  'POST /api/subscriptions/{id}/end/': 'body: an action that takes none',
  'POST /api/subscription-charges/{id}/retry-payment/': 'body: an action that takes none',
  // issue 31: a signed-in subject registers with their account's details; a resend
  'POST /api/s/self-initiate/{segmentId}/{portalPath}/':
    'body: takes none (the account is the details)',
  'POST /api/portal-registrations/{id}/resend-confirmation/': 'body: an action that takes none',
  'POST /api/lms/applications/{id}/tax-check/': 'body: an action that takes none',
  'POST /api/lms/s/applications/{id}/withdraw/': 'body: an action that takes none',
  // issue 30: users and roles
  'POST /api/users/{id}/deactivate/': 'body: an action that takes none',
  'POST /api/users/{id}/reactivate/': 'body: an action that takes none',
  'POST /api/users/{id}/resend-invitation/': 'body: an action that takes none',
  'POST /api/users/{id}/revoke-invitation/': 'body: an action that takes none',
  // issue 33: a webhook endpoint's test event, a delivery sent again
  'POST /api/webhook-endpoints/{id}/test/': 'body: an action that takes none',
  'POST /api/webhook-deliveries/{id}/resend/': 'body: an action that takes none',
  // issue 34: the subject access archive is a ZIP file
  'GET /api/subjects/{id}/data-archive/': 'response: a ZIP archive (subject access), not JSON',
  'GET /api/s/data-archive/': 'response: a ZIP archive (subject access), not JSON',
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

/** Where `schema` has an object that is not strict (a page's wrapper aside), as `.path`s. */
function openObjects(schema: z.ZodType, path = ''): string[] {
  const def = schema._zod.def;
  switch (def.type) {
    case 'object': {
      const shape = (schema as z.ZodObject).shape;
      const keys = Object.keys(shape).sort().join(',');
      // The platform's page ({count, count_capped?, next, previous, results}) is built around a
      // strict item.
      const isPage =
        keys === 'count,next,previous,results' ||
        keys === 'count,count_capped,next,previous,results';
      const strict = (schema as z.ZodObject)._zod.def.catchall?._zod.def.type === 'never';
      const own = strict || isPage ? [] : [path || '.'];
      return [
        ...own,
        ...Object.entries(shape).flatMap(([k, v]) => openObjects(v as z.ZodType, `${path}.${k}`)),
      ];
    }
    case 'array':
      return openObjects((schema as z.ZodArray<z.ZodType>).element, `${path}[]`);
    case 'union':
      return (schema as z.ZodUnion<z.ZodType[]>).options.flatMap((o) => openObjects(o, path));
    case 'optional':
    case 'nullable':
    case 'default':
      return openObjects((schema as z.ZodOptional<z.ZodType>).unwrap(), path);
    case 'record':
      return openObjects((schema as z.ZodRecord<z.ZodString, z.ZodType>).valueType, `${path}{}`);
    default:
      return [];
  }
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

  it('finds the objects that are not strict (the Zod walk itself)', () => {
    const strict = z.strictObject({ id: z.number() });
    expect(openObjects(strict)).toEqual([]);
    expect(openObjects(z.object({ id: z.number() }))).toEqual(['.']);
    expect(
      openObjects(
        z.strictObject({
          a: z.array(z.object({ b: z.number() })).nullable(),
          c: z.union([strict, z.looseObject({})]),
          d: z.record(z.string(), z.object({})),
        }),
      ),
    ).toEqual(['.a[]', '.c', '.d{}']);
    // The page wrapper is the platform's; its items are checked.
    expect(openObjects(pageSchema(strict))).toEqual([]);
    expect(openObjects(pageSchema(z.object({})))).toEqual(['.results[]']);
  });

  it('has strict response objects, so an answer with a field more fails (Zod walk)', async () => {
    // The document cannot tell z.object (extra keys dropped silently) from z.strictObject
    // (an answer with a field more fails): the routes' Zod schemas can.
    const routes: { method: string; url: string; schema?: { response?: unknown } }[] = [];
    const collector: KestrelModule = {
      name: 'route-collector',
      routes: Object.assign(
        async (app: FastifyInstance) => {
          app.addHook('onRoute', (route) => {
            routes.push({ method: String(route.method), url: route.url, schema: route.schema });
          });
        },
        // Registered on the root (not encapsulated), so the hook sees every later module's routes.
        { [Symbol.for('skip-override')]: true },
      ),
    };
    const { db, drop } = await createTestDatabase();
    const app = await buildApp({
      db,
      clock: new ManualClock(new Date()),
      modules: [collector, ...(await discoverModules())],
    });
    try {
      await app.ready();
      const open: string[] = [];
      for (const route of routes) {
        if (route.method === 'HEAD') continue; // GET's twin
        const response = (route.schema?.response ?? {}) as Record<string, unknown>;
        for (const [code, schema] of Object.entries(response)) {
          if (!/^2\d\d$/.test(code) || !(schema instanceof z.ZodType)) continue;
          for (const where of openObjects(schema))
            open.push(`${route.method} ${route.url} ${code}${where}`);
        }
      }
      expect(routes.length).toBeGreaterThan(50);
      expect(open).toEqual([]);
    } finally {
      await app.close();
      await drop();
    }
  });
});

describe('the lists declare their query string', () => {
  const queryOf = (path: string) =>
    (doc.paths[path]?.get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);

  it('names every filter a list reads, beside page, page_size, search and ordering', () => {
    const expected: Record<string, string[]> = {
      '/api/cases/': ['state', 'process', 'subject', 'created_after', 'created_before', 'flagged'],
      '/api/ops/cases/': ['state', 'customer', 'is_archived'],
      '/api/cases/export/': ['state', 'created_before'],
      '/api/case-activities/': ['case', 'state', 'activity_type'],
      '/api/subjects/': ['email', 'first_name', 'last_name', 'dob', 'is_archived'],
      '/api/audit-actions/': ['verb', 'content_type', 'actor', 'created_after', 'created_before'],
      '/api/ops/audit-actions/': ['customer', 'created_after'],
      '/api/activity-types/': ['code', 'kind'],
    };
    for (const [path, names] of Object.entries(expected)) {
      const declared = queryOf(path);
      expect([path, declared]).toEqual([
        path,
        expect.arrayContaining(['page', 'page_size', 'search', 'ordering', ...names]),
      ]);
    }
  });

  it('still reads a repeated key as its values joined with commas', async () => {
    const admin = await t.app.inject({ method: 'GET', url: '/api/cases/?state=a&state=b' });
    // Anonymous: refused by access, not by the query schema (which accepts the repeated key).
    expect(admin.statusCode).not.toBe(400);
  });
});
