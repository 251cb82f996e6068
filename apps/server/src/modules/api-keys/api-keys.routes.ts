import { apiKeyCreate, apiKeyCreatedOut, apiKeyOut, noContent, pageOut } from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, useBearerResolver } from '../../platform/access.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly, runInTenant } from '../../platform/service-context.js';
import { createApiKey, listApiKeys, resolveApiKey, revokeApiKey } from './api-keys.service.js';

/** The customer-account screens' permission: the organisation's administrators. */
const ADMIN = { access: { permissions: ['customers.change_customer' as const] } };
const tags = ['api-keys'];

/** /api/api-keys/: the customer's API keys (list, create with the secret once, revoke). */
export async function apiKeysRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  useBearerResolver(resolveApiKey);

  r.get(
    '/api/api-keys/',
    { schema: { tags, response: { 200: pageOut(apiKeyOut) } }, config: ADMIN },
    async (request) => {
      const results = await runInTenant(
        deps,
        actorOf(request),
        ({ tx }) => listApiKeys(tx),
        readOnly,
      );
      return { count: results.length, next: null, previous: null, results };
    },
  );

  r.post(
    '/api/api-keys/',
    { schema: { tags, body: apiKeyCreate, response: { 201: apiKeyCreatedOut } }, config: ADMIN },
    async (request, reply) => {
      const created = await runInTenant(deps, actorOf(request), ({ tx, actor, clock }) =>
        createApiKey(tx, actor, deps.secrets, request.body, clock.now()),
      );
      return reply.code(201).send(created);
    },
  );

  r.delete(
    '/api/api-keys/:id/',
    { schema: { tags, params: idParams, response: { 204: noContent } }, config: ADMIN },
    async (request, reply) => {
      const id = parseId(request.params.id);
      await runInTenant(deps, actorOf(request), ({ tx, actor, clock }) =>
        revokeApiKey(tx, actor, id, clock.now()),
      );
      return reply.code(204).send();
    },
  );
}
