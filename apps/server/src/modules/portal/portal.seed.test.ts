import { PORTAL_SECTIONS } from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, login } from '../../../test/helpers.js';
import { buildApp } from '../../app.js';
import type { Database } from '../../db/connection.js';
import { DEMO_INVITED, DEMO_PASSWORD, seedDemo } from '../../db/seed.js';
import { DEMO_INVITED_SUBJECT, EVERY_CHECK_PROCESS } from './portal.seed.js';

// The subject portal's demo data, as `npm start` loads it.
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

describe('the portal demo data', () => {
  it('gives subject@example.test an open Acme case needing every check, half filled in', async () => {
    const s = await login(app, 'subject@example.test', DEMO_PASSWORD);
    const list = (
      await app.inject({ method: 'GET', url: '/api/s/cases/', headers: s.headers })
    ).json();
    const every = list.results.filter(
      (c: { case_activities: unknown[] }) => c.case_activities.length === 10,
    );
    expect(every).toHaveLength(1);
    const id = every[0].id;
    const res = await app.inject({
      method: 'GET',
      url: `/api/s/case-portal/${id}/`,
      headers: s.headers,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.portal).toMatchObject({
      customer: { name: 'Acme Care Ltd' },
      state: 'awaiting-subject',
      sections: [...PORTAL_SECTIONS],
      portal_last_completed_section: 'address-history/1',
      progress: { completed: 3, next: 'address-history' },
      submitted: false,
    });
    expect(body.basic_details).toMatchObject({
      forename: 'Sam',
      surname: 'Taylor',
      gender: expect.any(String),
    });
    expect(body.basic_details.gender).not.toBe('');
    const addresses = (
      await app.inject({
        method: 'GET',
        url: `/api/s/case-addresses/?case=${id}`,
        headers: s.headers,
      })
    ).json();
    // part done: a gap in the history still to fill
    expect(addresses.gaps.length).toBeGreaterThan(0);
    const admin = await login(app, 'admin@acme.test', DEMO_PASSWORD);
    const processes = (
      await app.inject({
        method: 'GET',
        url: '/api/processes/?page_size=100',
        headers: admin.headers,
      })
    ).json();
    expect(processes.results.some((p: { name: string }) => p.name === EVERY_CHECK_PROCESS)).toBe(
      true,
    );
  });

  it('has jordan.lee@example.test invited: no account yet, the invitation in the outbox', async () => {
    const anon = await app.inject({
      method: 'GET',
      url: '/api/accounts/check-session/',
    });
    expect(anon.statusCode).toBe(200);
    await expect(login(app, DEMO_INVITED_SUBJECT, DEMO_PASSWORD)).rejects.toThrow();
    await app.deps.jobs.settle();
    const mails = await db.transaction({ scope: 'all', customerId: null }, (tx) =>
      tx.execute<{ subject: string; text: string }>(
        sql`select subject, text from outbox_emails where "to" = ${DEMO_INVITED_SUBJECT}`,
      ),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toMatch(/\/auth\/claim-account\?token=\S+/);
    // `npm start` prints them after the logins
    expect(DEMO_INVITED.map(([u]) => u)).toEqual([DEMO_INVITED_SUBJECT]);
  });
});
