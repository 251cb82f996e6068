import { Writable } from 'node:stream';
import { DrizzleQueryError } from 'drizzle-orm';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerErrorHandler } from './error-handler.js';
import { loggerOptions, logSafeError } from './logging.js';

const EMAIL = 'alice.secret@example.test';

/** A failed insert as Drizzle reports it: the statement, its values, and PostgreSQL's error. */
function failedInsert(): DrizzleQueryError {
  const cause = Object.assign(new Error('duplicate key value violates unique constraint "u"'), {
    code: '23505',
    constraint: 'subjects_email_key',
    detail: `Key (email)=(${EMAIL}) already exists.`,
  });
  return new DrizzleQueryError('insert into subjects (email) values ($1)', [EMAIL], cause);
}

describe('errors in the logs', () => {
  it('keep the statement, codes and frames, never the bound values', () => {
    const out = logSafeError(failedInsert());
    const text = JSON.stringify(out);
    expect(text).not.toContain(EMAIL);
    expect(out.message).toBe('Failed query: insert into subjects (email) values ($1)');
    expect(out.query).toBe('insert into subjects (email) values ($1)');
    expect(out.cause).toMatchObject({ code: '23505', constraint: 'subjects_email_key' });
    expect(String(out.stack)).toMatch(/\n\s+at /);
  });

  it('the server logger writes a failed request without them', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({ logger: { ...loggerOptions({ logLevel: 'info' }), stream } });
    registerErrorHandler(app);
    app.get('/boom', async () => {
      throw failedInsert();
    });
    const res = await app.inject({ method: 'GET', url: '/boom' });
    await app.close();
    expect(res.statusCode).toBe(500);
    const logged = lines.join('');
    expect(logged).toContain('insert into subjects');
    expect(logged).not.toContain(EMAIL);
  });
});
