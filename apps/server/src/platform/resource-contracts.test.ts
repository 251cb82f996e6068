import { type OutboxEmailOut, outboxEmailOut, pageOut } from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createProductUser, login, type TestApp } from '../../test/helpers.js';
import { registerResource } from './resource-router.js';
import { outboxEmails } from './tables/outbox.table.js';

// A resource registered with `output` (its contract) answers with exactly that shape: its list,
// retrieve, create and update answers are encoded with the contract, so a `present` that adds or
// leaves out a field fails (500) instead of reaching the client, for every registerResource
// route (customers, flags, maintenance windows, outbox, roles, the bootstrap lists, ...).

type Row = typeof outboxEmails.$inferSelect;
const exact = (m: Row): OutboxEmailOut => ({
  id: m.id,
  to: m.to,
  subject: m.subject,
  text: m.text,
  html: m.html,
  created_at: m.createdAt.toISOString(),
});

const presenters: Record<string, (m: Row) => Record<string, unknown>> = {
  exact,
  extra: (m) => ({ ...exact(m), internal: 'not in the contract' }),
  missing: (m) => {
    const { html: _, ...rest } = exact(m);
    return rest;
  },
  retyped: (m) => ({ ...exact(m), id: String(m.id) }),
};

const driftRoutes = {
  name: 'resource-contract-test',
  routes: async (app: FastifyInstance) => {
    for (const [name, present] of Object.entries(presenters)) {
      registerResource(app, {
        path: `/api/test-drift/${name}/`,
        table: outboxEmails,
        id: outboxEmails.id,
        contentType: 'outbox.email',
        context: 'ops',
        operations: ['list', 'retrieve'],
        access: { read: { permissions: ['outbox.view_email'] } },
        present,
        output: outboxEmailOut,
      });
    }
  },
};

let t: TestApp;
let id: number;

beforeAll(async () => {
  t = await buildTestApp({ extraModules: [driftRoutes] });
  await t.owner(async (tx) => {
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    const [m] = await tx
      .insert(outboxEmails)
      .values({ to: 'a@b.test', subject: 'Hello', text: 'Hi', html: null })
      .returning();
    id = m?.id ?? 0;
  });
});
afterAll(() => t.close());

describe("a resource's output contract", () => {
  it('lets an answer that matches it through, list and retrieve', async () => {
    const ops = await login(t.app, 'ops@k.test');
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/test-drift/exact/',
      headers: ops.headers,
    });
    expect(list.statusCode).toBe(200);
    expect(pageOut(outboxEmailOut).parse(list.json()).results).toHaveLength(1);
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/test-drift/exact/${id}/`,
      headers: ops.headers,
    });
    expect(outboxEmailOut.parse(one.json())).toMatchObject({ id, subject: 'Hello' });
  });

  it('fails an answer that drifts from it: a field more, a field less, another type', async () => {
    const ops = await login(t.app, 'ops@k.test');
    for (const name of ['extra', 'missing', 'retyped']) {
      for (const url of [`/api/test-drift/${name}/`, `/api/test-drift/${name}/${id}/`]) {
        const res = await t.app.inject({ method: 'GET', url, headers: ops.headers });
        expect({ url, status: res.statusCode }).toEqual({ url, status: 500 });
        expect(res.body).not.toContain('not in the contract');
      }
    }
  });
});
