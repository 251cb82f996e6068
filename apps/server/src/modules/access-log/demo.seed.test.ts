import type { RecordViewOut } from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, login } from '../../../test/helpers.js';
import { buildApp } from '../../app.js';
import type { Database } from '../../db/connection.js';
import { DEMO_PASSWORD, seedDemo } from '../../db/seed.js';

// Who saw what on the demo, as `npm start` loads it: Acme's administrator reads it on a case.
let db: Database;
let drop: () => Promise<void>;
let app: FastifyInstance;

beforeAll(async () => {
  ({ db, drop } = await createTestDatabase());
  expect(await seedDemo(db)).toBe(true);
  app = await buildApp({ db });
  await app.ready();
}, 120_000);
afterAll(async () => {
  await app.close();
  await drop();
});

describe('the demo’s record of views', () => {
  it('shows results and documents seen by the administrator and by operations, on a case', async () => {
    const admin = await login(app, 'admin@acme.test', DEMO_PASSWORD);
    const res = await app.inject({
      method: 'GET',
      url: '/api/record-views/?page_size=100',
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    const rows: RecordViewOut[] = res.json().results;
    const kinds = new Set(rows.map((r) => r.item_kind));
    expect(kinds).toEqual(new Set(['criminal_record', 'driving_record', 'document']));
    expect(rows.some((r) => r.actor_is_ops && r.actor_name === 'Olivia Ops')).toBe(true);
    expect(rows.some((r) => r.count > 1)).toBe(true);
    const caseId = rows[0]?.case ?? 0;
    const onCase = await app.inject({
      method: 'GET',
      url: `/api/record-views/?case=${caseId}`,
      headers: admin.headers,
    });
    expect(onCase.json().count).toBeGreaterThan(0);
  });
});
