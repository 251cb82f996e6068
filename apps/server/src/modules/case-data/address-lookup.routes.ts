import {
  type AddressLookupSourceOut,
  addressLookupQuery,
  addressLookupSourceOut,
  fakeOsAddresses,
  osDatahubTokenOut,
  osPlacesOut,
} from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/access.js';
import { AppError } from '../../platform/errors.js';
import { readOnly, runInTenant } from '../../platform/service-context.js';
import { OsDatahubError } from '../../providers/os-datahub/provider.js';
import { CASE_DATA_AUDIENCES } from './case-data.routes.js';

/** Why os-datahub-token has no token to give (404): the screen then uses the fake lookup. */
export const OS_NOT_CONFIGURED = 'The live address search is not configured: use the fake lookup.';
export const OS_DEMO_MODE = 'A demo-mode customer uses the fake address lookup.';
/** The token endpoint failed: the screen shows 'An error has occurred' and offers manual entry. */
export const OS_FAILED = 'The address search service did not answer.';

/** Why this caller gets no live search (the fake lookup answers it), or null when it does. */
async function noLiveSearch(
  app: FastifyInstance,
  request: FastifyRequest,
  audience: string,
): Promise<string | null> {
  if (!app.deps.osDatahub) return OS_NOT_CONFIGURED;
  const actor = actorOf(request);
  if (audience === 'ops' || actor.customerId === null) return null;
  const rows = await runInTenant(
    app.deps,
    actor,
    ({ tx }) =>
      tx.execute<{ demo_mode: boolean }>(
        sql`select demo_mode from customers where id = ${actor.customerId}`,
      ),
    readOnly,
  );
  return rows[0]?.demo_mode === true ? OS_DEMO_MODE : null;
}

/**
 * The address lookup of spec point 7, for every audience: GET .../lookup-source/ (which lookup
 * the screen uses, so that without live keys it goes straight to the fake one), GET
 * .../os-fake-lookup/?postcode= (deterministic addresses in OS Places' shape; the default, and
 * always for a demo-mode customer) and POST .../os-datahub-token/ (a cached OS Data Hub token for
 * the browser's live search when OS_DATAHUB_KEY / OS_DATAHUB_SECRET are set; 404 otherwise, 502
 * when the Data Hub fails).
 */
export async function addressLookupRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['case data'];
  for (const { prefix, audience, read } of CASE_DATA_AUDIENCES) {
    r.get(
      `${prefix}case-addresses/lookup-source/`,
      { schema: { tags, response: { 200: addressLookupSourceOut } }, config: read },
      async (request): Promise<AddressLookupSourceOut> => ({
        source: (await noLiveSearch(app, request, audience)) === null ? 'live' : 'fake',
      }),
    );
    r.get(
      `${prefix}case-addresses/os-fake-lookup/`,
      {
        schema: { tags, querystring: addressLookupQuery, response: { 200: osPlacesOut } },
        config: read,
      },
      async (request) => ({
        results: fakeOsAddresses(request.query.postcode).map((DPA) => ({ DPA })),
      }),
    );
    r.post(
      `${prefix}case-addresses/os-datahub-token/`,
      { schema: { tags, response: { 200: osDatahubTokenOut } }, config: read },
      async (request) => {
        const provider = app.deps.osDatahub;
        const refusal = await noLiveSearch(app, request, audience);
        if (!provider || refusal !== null) {
          throw new AppError(404, { detail: refusal ?? OS_NOT_CONFIGURED });
        }
        try {
          return await provider.token();
        } catch (err) {
          if (!(err instanceof OsDatahubError)) throw err;
          request.log.warn({ err }, 'OS Data Hub token');
          throw new AppError(502, { detail: OS_FAILED });
        }
      },
    );
  }
}
