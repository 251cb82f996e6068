import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.js';
import {
  fixNullable,
  fixRequiredKeys,
  operationIdOf,
  REFERENCE_PATH,
  securityOf,
  singular,
  summaryOf,
} from './openapi.js';

// The OpenAPI document a customer's developer generates a client from (issue 33) meets Redocly's
// recommended rules (the trailing-slash rule off: the spec's paths end in a slash), linted here
// with @redocly/openapi-core on the document the server serves.

type Operation = {
  operationId?: string;
  summary?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, unknown>;
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  servers?: { url: string }[];
  components?: { schemas?: Record<string, unknown> };
};

/**
 * Warnings that stay, each with its reason: the tests' server is on localhost (a real
 * installation's PUBLIC_URL is its own host), and the product states no licence of its API.
 */
const ALLOWED_WARNINGS: Record<string, string> = {
  'no-server-example.com': "the tests' PUBLIC_URL is http://localhost:8080",
  'info-license': 'no licence is published for the API',
};

async function lint(doc: unknown): Promise<NormalizedProblem[]> {
  const config = await createConfig({
    extends: ['recommended'],
    rules: { 'no-path-trailing-slash': 'off' },
  });
  return lintFromString({
    source: JSON.stringify(doc),
    absoluteRef: '/openapi.json',
    config,
  });
}

const summary = (problems: NormalizedProblem[]) =>
  problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);

let t: TestApp;
let doc: Doc;
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
  );

beforeAll(async () => {
  t = await buildTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
});
afterAll(() => t.close());

describe("the OpenAPI document under Redocly's recommended rules", () => {
  it('has no error, and only the warnings allowed above', async () => {
    const problems = await lint(doc);
    expect(summary(problems.filter((p) => p.severity === 'error'))).toEqual([]);
    const warnings = problems.filter((p) => p.severity !== 'error');
    expect(summary(warnings.filter((p) => ALLOWED_WARNINGS[p.ruleId] === undefined))).toEqual([]);
  }, 60_000);

  it('finds what it lints for (the lint itself): an operation stripped of them fails', async () => {
    const [path, ops] = Object.entries(doc.paths).find(([p]) => p === '/api/cases/{id}/') ?? [];
    expect(path).toBeDefined();
    const { summary: _s, operationId: _o, security: _sec, ...bare } = ops?.get ?? { responses: {} };
    const responses = Object.fromEntries(
      Object.entries(bare.responses).filter(([code]) => !code.startsWith('4')),
    );
    const broken = {
      ...doc,
      paths: {
        [String(path)]: {
          get: {
            ...bare,
            responses,
            parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'integer' } }],
          },
        },
      },
      components: {
        ...doc.components,
        schemas: { X: { nullable: true, anyOf: [{ type: 'string' }, { type: 'number' }] } },
      },
    };
    const rules = new Set((await lint(broken)).map((p) => p.ruleId));
    for (const rule of [
      'operation-summary',
      'operation-operationId',
      'operation-4xx-response',
      'security-defined',
      'nullable-type-sibling',
    ]) {
      expect([rule, rules.has(rule)]).toEqual([rule, true]);
    }
  }, 60_000);

  it('gives every operation a unique operationId, a summary, security and a 4xx answer', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(300);
    const ids = ops.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const lacking = ops.filter(
      ({ op }) =>
        !op.summary ||
        !op.security?.length ||
        !Object.keys(op.responses).some((c) => c.startsWith('4')),
    );
    expect(lacking.map((o) => o.key)).toEqual([]);
  });

  it('offers the API key on the customer workspace only, never ops, a subject or an account', () => {
    const bearer = (key: string) =>
      operations()
        .find((o) => o.key === key)
        ?.op.security?.some((s) => 'bearer' in s);
    expect(bearer('GET /api/cases/')).toBe(true);
    expect(bearer('POST /api/subjects/')).toBe(true);
    expect(bearer('GET /api/ops/cases/')).toBe(false);
    expect(bearer('GET /api/s/case-portal/{id}/')).toBe(false);
    expect(bearer('GET /api/user/')).toBe(false);
    const cases = operations().find((o) => o.key === 'POST /api/subjects/')?.op;
    expect(cases?.security).toEqual([{ session: [], csrf: [] }, { bearer: [] }]);
    expect(cases?.responses['403']).toEqual({ $ref: '#/components/responses/Forbidden' });
    expect(cases?.responses['400']).toEqual({ $ref: '#/components/responses/BadRequest' });
    expect(operations().find((o) => o.key === 'GET /api/cases/{id}/')?.op.responses['404']).toEqual(
      { $ref: '#/components/responses/NotFound' },
    );
  });

  it('declares the error shapes the API answers with', async () => {
    expect(doc.components?.schemas?.Error).toMatchObject({ required: ['detail'] });
    // A real refusal has that shape: anonymous, a workspace list answers 401 `{detail}`.
    const res = await t.app.inject({ method: 'GET', url: '/api/cases/' });
    expect(res.statusCode).toBe(401);
    expect(Object.keys(res.json())).toEqual(['detail']);
  });
});

describe('what the document is made from', () => {
  it('derives operationIds from the method and the path', () => {
    expect(operationIdOf('GET', '/api/cases/')).toBe('getCases');
    expect(operationIdOf('post', '/api/ops/cases/{id}/archive/')).toBe('postOpsCasesByIdArchive');
    expect(operationIdOf('GET', '/api/s/case-portal/:id/')).toBe('getSubjectCasePortalById');
  });

  it('derives summaries from the method, the path and the answer', () => {
    const none = { creates: false, lists: false };
    expect(summaryOf('GET', '/api/cases/', 'product', { ...none, lists: true })).toBe('List cases');
    expect(summaryOf('GET', '/api/case-activities/{id}/', 'product', none)).toBe(
      'Get a case activity',
    );
    expect(summaryOf('POST', '/api/users/', 'product', { ...none, creates: true })).toBe(
      'Create a user',
    );
    expect(summaryOf('POST', '/api/ops/cases/{id}/archive/', 'ops', none)).toBe(
      'Case: archive (operations)',
    );
    expect(
      summaryOf('GET', '/api/processes/{id}/cycles/', 'product', { ...none, lists: true }),
    ).toBe('List cycles of a process');
    expect(summaryOf('GET', '/api/accounts/check-session/', 'public', none)).toBe(
      'Accounts: check session',
    );
    expect(singular('addresses')).toBe('address');
    expect(singular('case-activities')).toBe('case activity');
    expect(singular('processes')).toBe('process');
  });

  it('derives security from the audience and the method', () => {
    expect(securityOf('GET', '/api/public/branding/', 'public')).toEqual([{}]);
    expect(securityOf('POST', '/api/accounts/login/', 'public')).toEqual([
      { session: [], csrf: [] },
    ]);
    expect(securityOf('GET', '/api/accounts/check-session/', 'authenticated')).toEqual([
      { session: [] },
    ]);
    expect(securityOf('DELETE', '/api/cases/{id}/', 'product')).toEqual([
      { session: [], csrf: [] },
      { bearer: [] },
    ]);
  });

  it('gives a nullable schema its type', () => {
    const literals = {
      nullable: true,
      anyOf: [
        { type: 'number', enum: [1] },
        { type: 'number', enum: [2] },
      ],
    };
    fixNullable(literals);
    expect(literals).toMatchObject({ type: 'number', nullable: true });
    const mixed: Record<string, unknown> = {
      nullable: true,
      anyOf: [{ type: 'string' }, { $ref: '#/x' }],
    };
    fixNullable(mixed);
    expect(mixed).toEqual({
      anyOf: [
        { type: 'string' },
        { $ref: '#/x' },
        { type: 'string', nullable: true, enum: [null] },
      ],
    });
    const choices = { nullable: true, enum: ['a', 'b', null] };
    fixNullable(choices);
    expect(choices).toMatchObject({ type: 'string' });
    const typed = { nullable: true, type: 'integer' };
    fixNullable(typed);
    expect(typed).toEqual({ nullable: true, type: 'integer' });
  });

  it("declares a record's required keys", () => {
    const record = {
      type: 'object',
      additionalProperties: { type: 'number' },
      required: ['pending', 'complete'],
    };
    fixRequiredKeys(record);
    expect(record).toMatchObject({
      properties: { pending: { type: 'number' }, complete: { type: 'number' } },
    });
  });
});

describe('the reference pages', () => {
  it('serves a Redoc page of the document, its bundle from the server itself', async () => {
    const page = await t.app.inject({ method: 'GET', url: REFERENCE_PATH });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<redoc spec-url="/api/docs/openapi.json"');
    const src = /<script src="([^"]+)"><\/script>/.exec(page.body)?.[1];
    expect(src).toBe('/api/docs/redoc.standalone.js');
    // No other origin: scripts from the server only; Redoc's search worker is a blob.
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("worker-src 'self' blob:");
    expect(page.body).not.toMatch(/https?:\/\//);
    const bundle = await t.app.inject({ method: 'GET', url: String(src) });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/^text\/javascript/);
    expect(bundle.body.length).toBeGreaterThan(100_000);
    expect(bundle.body).toContain('Redoc');
    // nothing fetched from another origin (its attribution's logo included)
    expect(bundle.body).not.toMatch(/src:"https?:\/\//);
    expect(bundle.body).not.toContain('cdn.redoc.ly');
  });

  it('still serves the document itself at /api/docs/ for anyone', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.json().servers).toEqual([
      { url: 'http://localhost:8080', description: expect.any(String) },
    ]);
  });
});
