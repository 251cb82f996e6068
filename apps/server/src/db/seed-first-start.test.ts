// @postgres: a first start with no queue yet: the demo invitation went missing on PostgreSQL only

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helpers.js';
import { buildApp } from '../app.js';
import { DEMO_INVITED_SUBJECT } from '../modules/portal/portal.seed.js';
import type { Database } from './connection.js';
import { QUEUE_SCHEMA } from './queue-schema.js';
import { seedDemo } from './seed.js';

// The demo as a first `npm start` loads it: migrated, but no job queue made yet (the server makes
// its queues when it starts, after the seed). The test template holds the queues already, so
// they are removed here first: that is how a brand-new database (PGlite or PostgreSQL) is.
let db: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await createTestDatabase());
  await db.ownerQuery(`select ${QUEUE_SCHEMA}.delete_queue(name) from ${QUEUE_SCHEMA}.queue`);
  const { rows } = await db.ownerQuery(`select count(*)::int as n from ${QUEUE_SCHEMA}.queue`);
  expect(Number(rows[0]?.n)).toBe(0);
}, 120_000);
afterAll(async () => {
  await drop();
});

describe('the demo on a first start', () => {
  it("has the invited subject's invitation in the outbox once the server runs", async () => {
    expect(await seedDemo(db)).toBe(true);
    const app = await buildApp({ db });
    await app.ready();
    try {
      await app.deps.jobs.settle();
      const mails = await db.transaction({ scope: 'all', customerId: null }, (tx) =>
        tx.execute<{ text: string }>(
          sql`select text from outbox_emails where "to" = ${DEMO_INVITED_SUBJECT}`,
        ),
      );
      expect(mails).toHaveLength(1);
      expect(mails[0]?.text).toMatch(/\/auth\/claim-account\?token=\S+/);
    } finally {
      await app.close();
    }
  });
});
