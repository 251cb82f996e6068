import { vi } from 'vitest';

export interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

type Responder = (call: Call) => Answer | Promise<Answer>;

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Replaces fetch with a function of the call; records every call. */
export function mockFetch(responder: Responder) {
  const calls: Call[] = [];
  const fn = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(init?.headers ?? {})) {
      if (typeof value === 'string') headers[key.toLowerCase()] = value;
    }
    const call: Call = {
      method: init?.method ?? 'GET',
      url: String(input),
      headers,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const { status, body, headers: extra } = await responder(call);
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json', ...extra },
    });
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}
