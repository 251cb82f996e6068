import type { DemoSeedContext } from '../../platform/module.js';
import {
  DEV_OIDC_CLIENT_ID,
  DEV_OIDC_CLIENT_SECRET,
  DEV_OIDC_PATH,
} from './dev-provider.routes.js';
import { customerSsoConfigs } from './sso.table.js';

/**
 * Acme signs its staff (acme.test) in through the development identity provider served by this
 * server (/sim/oidc/, its issuer set to the server's address at each start), passwords still
 * allowed: "Sign in with your organisation" works from a fresh `npm start`.
 */
export async function seedSsoDemo(ctx: DemoSeedContext): Promise<void> {
  await ctx.tx.insert(customerSsoConfigs).values({
    customerId: ctx.customers.acme,
    issuer: `http://localhost:8080${DEV_OIDC_PATH}`,
    clientId: DEV_OIDC_CLIENT_ID,
    clientSecret: DEV_OIDC_CLIENT_SECRET,
    allowedDomains: ['acme.test'],
    passwordAllowed: true,
    enabled: true,
    updatedAt: ctx.clock.now(),
    updatedByName: 'Demo set-up',
  });
}
