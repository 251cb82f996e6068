import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DevProvider } from '../../providers/oidc/dev-provider.js';
import { customerSsoConfigs } from './sso.table.js';

/** Where the development identity provider is served on this server. */
export const DEV_OIDC_PATH = '/sim/oidc';
/** The product's client at the development provider (the demo configuration uses it). */
export const DEV_OIDC_CLIENT_ID = 'kestrel-dev';
export const DEV_OIDC_CLIENT_SECRET = 'kestrel-dev-client-secret';

/**
 * The development identity provider is served (under /sim/oidc/) while the simulators are: not
 * in production (NODE_ENV=production), nor when OIDC_DEV_PROVIDER=0.
 */
export function devProviderEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV !== 'production' && env.OIDC_DEV_PROVIDER !== '0';
}

/** The dev provider's issuer on this server (PUBLIC_URL's, which follows PORT). */
export function devIssuer(publicUrl: string): string {
  return `${publicUrl.replace(/\/$/, '')}${DEV_OIDC_PATH}`;
}

/** The callback addresses the dev client accepts: PUBLIC_URL's host, localhost and 127.0.0.1. */
function redirectUris(publicUrl: string): string[] {
  const base = new URL(publicUrl);
  const hosts = new Set([base.host, base.host.replace('localhost', '127.0.0.1')]);
  hosts.add(base.host.replace('127.0.0.1', 'localhost'));
  return [...hosts].map((h) => new URL('/auth/callback', `${base.protocol}//${h}`).href);
}

/**
 * Serves the development identity provider (oidc-provider, a development dependency, loaded on
 * the first request) at /sim/oidc/, and points the demo's configuration (seeded for Acme, see
 * demo.seed.ts) at it on this server's address.
 */
export async function devProviderRoutes(app: FastifyInstance): Promise<void> {
  const publicUrl = app.deps.config.publicUrl;
  const issuer = devIssuer(publicUrl);
  let provider: Promise<DevProvider> | null = null;
  const load = () => {
    provider ??= import('../../providers/oidc/dev-provider.js').then((m) =>
      m.createDevProvider({
        issuer,
        clients: [
          {
            clientId: DEV_OIDC_CLIENT_ID,
            clientSecret: DEV_OIDC_CLIENT_SECRET,
            redirectUris: redirectUris(publicUrl),
          },
        ],
      }),
    );
    return provider;
  };

  await app.register(async (child) => {
    // The provider reads its own bodies: nothing is parsed here.
    child.removeAllContentTypeParsers();
    child.addContentTypeParser('*', (_req, _payload, done) => done(null));
    const handler = async (
      request: import('fastify').FastifyRequest,
      reply: import('fastify').FastifyReply,
    ) => {
      const p = await load().catch(() => null);
      if (!p) return reply.code(404).send({ detail: 'Not found.' });
      reply.hijack();
      p.handle(request.raw, reply.raw);
    };
    child.all(DEV_OIDC_PATH, { schema: { hide: true } }, handler);
    child.all(`${DEV_OIDC_PATH}/*`, { schema: { hide: true } }, handler);
  });

  // The demo configuration follows this server's address (PORT may differ from the seed's).
  app.addHook('onReady', async () => {
    await app.deps.db.ownerTransaction((tx) =>
      tx
        .update(customerSsoConfigs)
        .set({ issuer })
        .where(
          sql`${customerSsoConfigs.issuer} like ${`%${DEV_OIDC_PATH}`} and ${customerSsoConfigs.issuer} <> ${issuer} and ${customerSsoConfigs.clientId} = ${DEV_OIDC_CLIENT_ID}`,
        ),
    );
  });
}
