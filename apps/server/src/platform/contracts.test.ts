import { processOut, subjectOut } from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, createAdminAndViewer, login, type TestApp } from '../../test/helpers.js';
import { createCustomer, createProcess } from '../db/factories.js';

// The routes answer with the contracts of @kestrel/domain (contracts/): the serializer checks
// each answer against its route's response schema (strict objects), so a presenter that adds or
// leaves out a field fails instead of drifting from the OpenAPI document and the web's types.

// A presenter that drifts: `drift.mode` decides what presentProcess adds or leaves out.
const drift = vi.hoisted(() => ({ mode: 'none' as 'none' | 'extra' | 'missing' }));
vi.mock('../modules/processes/processes.service.js', async (original) => {
  const real = await original<typeof import('../modules/processes/processes.service.js')>();
  return {
    ...real,
    presentProcess: (row: Parameters<typeof real.presentProcess>[0]) => {
      const out: Record<string, unknown> = real.presentProcess(row);
      if (drift.mode === 'extra') out.internal_note = 'not in the contract';
      if (drift.mode === 'missing') delete out.description;
      return out;
    },
  };
});

const subject = {
  id: 1,
  first_name: 'Ann',
  middlename: '',
  last_name: 'Lee',
  email: 'ann@example.test',
  dob: null,
  phone_number: '',
  has_account: false,
  is_archived: false,
  archived_at: null,
  created_at: '2026-01-02T03:04:05.678Z',
  open_cases: 0,
};

const testRoutes = {
  name: 'contract-test',
  routes: async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const publicRoute = { access: { audience: 'public' as const } };
    const schema = { hide: true, response: { 200: subjectOut } };
    r.get('/api/test-contract/exact/', { schema, config: publicRoute }, async () => subject);
    r.get('/api/test-contract/extra/', { schema, config: publicRoute }, async () => ({
      ...subject,
      password_hash: 'x',
    }));
    r.get('/api/test-contract/missing/', { schema, config: publicRoute }, async () => {
      const { has_account: _, ...rest } = subject;
      // The handler's type already refuses this; a presenter typed loosely would not.
      return rest as typeof subject;
    });
  },
};

let t: TestApp;
let processId: number;

beforeAll(async () => {
  t = await buildTestApp({ extraModules: [testRoutes] });
  await t.owner(async (tx) => {
    const acme = (await createCustomer(tx, { name: 'Acme' })).id;
    await createAdminAndViewer(tx, acme);
    processId = (await createProcess(tx, { customerId: acme, name: 'Care' })).id;
  });
});
afterAll(() => t.close());

describe('response contracts', () => {
  it('sends an answer that matches its schema', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test-contract/exact/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(subject);
  });

  it('fails an answer with a field the contract does not have, or without one it has', async () => {
    for (const url of ['/api/test-contract/extra/', '/api/test-contract/missing/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain('password_hash');
    }
  });

  it('fails a real route whose presenter drifts (GET /api/processes/{id}/)', async () => {
    const admin = await login(t.app, 'admin@acme.test');
    const get = () =>
      t.app.inject({ method: 'GET', url: `/api/processes/${processId}/`, headers: admin.headers });
    try {
      drift.mode = 'none';
      const ok = await get();
      expect(ok.statusCode).toBe(200);
      expect(processOut.safeParse(ok.json()).success).toBe(true);
      drift.mode = 'extra';
      expect((await get()).statusCode).toBe(500);
      drift.mode = 'missing';
      expect((await get()).statusCode).toBe(500);
    } finally {
      drift.mode = 'none';
    }
  });

  it('puts the contracts in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
    const subjects = doc.paths['/api/subjects/'].post;
    const body = subjects.requestBody.content['application/json'].schema;
    expect(body.properties.last_name.maxLength).toBe(50);
    const created = subjects.responses['201'].content['application/json'].schema;
    expect(Object.keys(created.properties).sort()).toEqual(Object.keys(subject).sort());
    expect(created.additionalProperties).toBe(false);
    const process =
      doc.paths['/api/processes/{id}/'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(process.properties)).toContain('case_count');
    const description =
      doc.paths['/api/processes/'].post.requestBody.content['application/json'].schema.properties
        .description;
    expect(description.maxLength).toBe(2000);
  });
});
