import { customerAccountOut, customerAccountUpdate } from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/access.js';
import { absentBodyAsEmpty } from '../../platform/body-parsing.js';
import { readOnly, runAsSystem, runInTenant } from '../../platform/service-context.js';
import { getCustomerAccount, updateCustomerAccount } from './customer-account.service.js';

const tags = ['customer-account'];

/** /api/customer-account/: the signed-in staff member's organisation (issue 30). */
export async function customerAccountRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;

  r.get(
    '/api/customer-account/',
    {
      schema: { tags, response: { 200: customerAccountOut } },
      config: { access: { permissions: ['customers.view_customer'] } },
    },
    async (request) => runInTenant(deps, actorOf(request), getCustomerAccount, readOnly),
  );

  r.patch(
    '/api/customer-account/',
    {
      schema: { tags, body: customerAccountUpdate, response: { 200: customerAccountOut } },
      preValidation: absentBodyAsEmpty,
      config: { access: { permissions: ['customers.view_customer', 'customers.change_customer'] } },
    },
    // The application role only reads customers (operations change them): the write runs as
    // the system, on the acting user's own customer only, audited as them.
    async (request) => {
      const out = await runAsSystem(
        deps,
        (ctx) => updateCustomerAccount(ctx, request.body),
        actorOf(request),
      );
      // the two-factor policy is part of every session of the organisation's staff
      if (request.body.require_totp !== undefined) await deps.sessions.forgetAll();
      return out;
    },
  );
}
