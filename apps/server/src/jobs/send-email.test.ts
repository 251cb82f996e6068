// @postgres: the job queue on PostgreSQL: the email job retried while the mail server is silent

import { createServer, type Server, type Socket } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymous,
  buildTestApp,
  createCustomer,
  createProductUser,
  type TestApp,
} from '../../test/helpers.js';
import { queueJobs } from '../platform/jobs.js';

// A mail server that accepts connections and never answers (no greeting): before the queue, a
// password-reset request waited for it (30 s) and answered 500.
const sockets: Socket[] = [];
let silent: Server;
let t: TestApp;

beforeAll(async () => {
  silent = createServer((socket) => {
    sockets.push(socket);
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const address = silent.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  t = await buildTestApp({
    config: { smtpUrl: `smtp://127.0.0.1:${port}`, smtpTimeoutMs: 300, jobPollingSeconds: 0.5 },
  });
  await t.owner(async (tx) => {
    const c = await createCustomer(tx);
    await createProductUser(tx, { customerId: c.id, username: 'a@acme.test' });
  });
});
afterAll(async () => {
  await t.close();
  for (const s of sockets) s.destroy();
  await new Promise((r) => silent.close(r));
});

describe('the send-email job', () => {
  it('a password reset answers at once while the mail server is silent; the email is retried', async () => {
    const anon = await anonymous(t.app);
    const started = performance.now();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/password-reset/',
      headers: anon.headers,
      payload: { email: 'a@acme.test' },
    });
    const took = performance.now() - started;
    expect(res.statusCode).toBe(200);
    expect(took).toBeLessThan(2_000);
    // The worker tried, the silent server timed it out: the job waits to be tried again.
    const end = Date.now() + 15_000;
    let job: typeof queueJobs.$inferSelect | undefined;
    while (Date.now() < end) {
      [job] = await t.owner((tx) =>
        tx.select().from(queueJobs).where(eq(queueJobs.name, 'send-email')),
      );
      if (job?.state === 'retry') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(job).toMatchObject({ state: 'retry', retryLimit: 9, retryBackoff: true });
    expect(JSON.stringify(job?.output)).toMatch(/timeout/i);
    expect(job?.data).toMatchObject({
      to: 'a@acme.test',
      subject: 'Reset your Kestrel Checks password',
    });
    // back-off: the first retry waits 30-60 s
    const wait = (job?.startAfter.getTime() ?? 0) - Date.now();
    expect(wait).toBeGreaterThan(20_000);
    expect(wait).toBeLessThanOrEqual(60_000);
  });
});
