import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/fetch-mock';
import {
  create,
  list,
  listAll,
  onFailedResponse,
  partialUpdate,
  remove,
  request,
  retrieve,
  setCsrfToken,
  update,
} from './client';

beforeEach(() => setCsrfToken('tok-1'));
afterEach(() => vi.unstubAllGlobals());

describe('API client', () => {
  it('sends the CSRF header on every call, reads included', async () => {
    const calls = mockFetch(() => ({ status: 200, body: {} }));
    await request('GET', '/api/user/');
    setCsrfToken('tok-2');
    await request('POST', '/api/x/', { body: { a: 1 } });
    expect(calls.map((c) => c.headers['x-csrftoken'])).toEqual(['tok-1', 'tok-2']);
    expect(calls[1]?.headers['content-type']).toBe('application/json');
    expect(calls[1]?.body).toEqual({ a: 1 });
  });

  it('puts params in the query string with literal commas and bare null keys', async () => {
    const calls = mockFetch(() => ({
      status: 200,
      body: { count: 0, next: null, previous: null, results: [] },
    }));
    await list('/api/cases/', { state: 'open,closed', archived: null });
    expect(calls[0]?.url).toBe('/api/cases/?state=open,closed&archived');
  });

  it('resolves a failed call to the error response instead of throwing', async () => {
    mockFetch(() => ({ status: 400, body: { name: ['Required'] } }));
    const r = await request('POST', '/api/cases/', { body: {} });
    expect(r).toEqual({ ok: false, status: 400, data: { name: ['Required'] } });
  });

  it('resolves a network failure to status 0', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const r = await request('GET', '/api/user/');
    expect(r).toEqual({ ok: false, status: 0, data: {} });
  });

  it('gives an empty list with count zero when a list fails', async () => {
    mockFetch(() => ({ status: 500, body: { detail: 'boom' } }));
    const r = await list('/api/cases/');
    expect(r.ok).toBe(false);
    expect(r.data).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect(r.error).toEqual({ detail: 'boom' });
  });

  it('checks the success status of each action: 200 retrieve/update, 201 create, 204 delete', async () => {
    const statuses: Record<string, number> = {
      GET: 200,
      PUT: 200,
      PATCH: 200,
      POST: 201,
      DELETE: 204,
    };
    const calls = mockFetch((c) => ({
      status: statuses[c.method] ?? 500,
      body: c.method === 'DELETE' ? undefined : { id: 1 },
    }));
    expect((await retrieve('/api/cases/', 1)).ok).toBe(true);
    expect((await update('/api/cases/', 1, {})).ok).toBe(true);
    expect((await partialUpdate('/api/cases/', 1, {})).ok).toBe(true);
    expect((await create('/api/cases/', {})).ok).toBe(true);
    expect((await remove('/api/cases/', 1)).ok).toBe(true);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /api/cases/1/',
      'PUT /api/cases/1/',
      'PATCH /api/cases/1/',
      'POST /api/cases/',
      'DELETE /api/cases/1/',
    ]);
  });

  it('does not count another 2xx as the success of a create', async () => {
    mockFetch(() => ({ status: 200, body: { id: 1 } }));
    expect((await create('/api/cases/', {})).ok).toBe(false);
  });

  it('fetches every page of 100 until the count is reached', async () => {
    const calls = mockFetch((c) => {
      const page = Number(new URL(c.url, 'http://x').searchParams.get('page'));
      const results = Array.from({ length: page < 3 ? 100 : 50 }, (_, i) => ({
        id: (page - 1) * 100 + i,
      }));
      return { status: 200, body: { count: 250, next: null, previous: null, results } };
    });
    const r = await listAll<{ id: number }>('/api/activity-types/');
    expect(r.ok && r.data.length).toBe(250);
    expect(calls.map((c) => c.url)).toEqual([
      '/api/activity-types/?page=1&page_size=100',
      '/api/activity-types/?page=2&page_size=100',
      '/api/activity-types/?page=3&page_size=100',
    ]);
  });

  it('tells listeners about failed responses', async () => {
    mockFetch(() => ({ status: 503, body: { detail: 'down' } }));
    const seen: number[] = [];
    const stop = onFailedResponse((status) => seen.push(status));
    await request('GET', '/api/cases/');
    stop();
    await request('GET', '/api/cases/');
    expect(seen).toEqual([503]);
  });
});
