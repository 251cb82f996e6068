import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDevProvider, type DevProviderOptions } from './dev-provider.js';

/**
 * For tests: the development provider on a free port of 127.0.0.1, and a browser-like walk
 * through its sign-in page (cookies kept, redirects followed by hand) up to the product's
 * callback address.
 */
export interface RunningDevProvider {
  issuer: string;
  close: () => Promise<void>;
}

export async function startDevProvider(
  opts: Omit<DevProviderOptions, 'issuer'>,
): Promise<RunningDevProvider> {
  let handle:
    | ((req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void)
    | null = null;
  const server: Server = createServer((req, res) => handle?.(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  handle = createDevProvider({ ...opts, issuer }).handle;
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Cookies of one browser, by name (the provider's, all on one host). */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = (pair ?? '').indexOf('=');
      if (eq > 0) this.cookies.set((pair ?? '').slice(0, eq).trim(), (pair ?? '').slice(eq + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Follows `authorizationUrl` as a browser would, signs in on the provider's page as `email`
 * (with a second factor when `mfa`), and returns the query the provider sent to `redirectUri`.
 */
export async function signInAtProvider(
  authorizationUrl: string,
  redirectUri: string,
  who: { email: string; mfa?: boolean },
): Promise<Record<string, string>> {
  const jar = new Jar();
  let url = authorizationUrl;
  let method = 'GET';
  let body: string | undefined;
  const target = new URL(redirectUri);
  const arrived = (u: string) => {
    const x = new URL(u);
    return x.origin === target.origin && x.pathname === target.pathname;
  };
  for (let hop = 0; hop < 12; hop++) {
    if (arrived(url)) {
      return Object.fromEntries(new URL(url).searchParams);
    }
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    });
    jar.take(res);
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`unexpected provider page (${res.status}): ${html.slice(0, 300)}`);
    url = new URL(
      action.replace(/&#(\d+);/g, (_m, c) => String.fromCharCode(Number(c))),
      url,
    ).href;
    method = 'POST';
    body = new URLSearchParams({
      email: who.email,
      password: 'any password',
      ...(who.mfa ? { mfa: '1' } : {}),
    }).toString();
  }
  throw new Error('too many redirects at the provider');
}
