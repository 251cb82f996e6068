import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBootstrap } from '../lib/session/bootstrap';
import { mockFetch } from '../test/fetch-mock';
import { BOOTSTRAP_READS } from './bootstrap-preloads';

describe('the bootstrap reads the server preloads', () => {
  it("are exactly what a subject's bootstrap asks for", async () => {
    const calls = mockFetch(({ url }) => ({
      status: 200,
      body: url.startsWith('/api/s/content-types/')
        ? { count: 0, next: null, previous: null, results: [] }
        : {},
    }));
    const data = await loadBootstrap('SubjectUser', null);
    expect(data).not.toBeNull();
    expect(calls.every((c) => c.method === 'GET')).toBe(true);
    expect(calls.map((c) => c.url).sort()).toEqual([...BOOTSTRAP_READS.subject].sort());
  });

  it('check-session is preloaded by index.html, as the session layer asks for it', () => {
    const html = readFileSync(join(import.meta.dirname, '../../index.html'), 'utf8');
    expect(html).toContain(
      '<link rel="preload" as="fetch" crossorigin href="/api/accounts/check-session/" />',
    );
    const actions = readFileSync(
      join(import.meta.dirname, '../lib/session/session-actions.ts'),
      'utf8',
    );
    expect(actions).toContain(
      "request<CheckSessionResponse>('GET', '/api/accounts/check-session/')",
    );
  });
});
