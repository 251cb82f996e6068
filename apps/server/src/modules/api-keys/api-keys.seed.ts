import { createHash, randomBytes } from 'node:crypto';
import type { DemoSeedContext } from '../../platform/module.js';
import { apiKeys } from './api-keys.table.js';

/**
 * Acme Care Ltd's revoked demo key (the API keys screen shows something after a fresh start). Its
 * secret is thrown away: a revoked key never resolves, so its hash needs no pepper.
 */
export async function seedApiKeysDemo(ctx: DemoSeedContext): Promise<void> {
  const now = ctx.clock.now();
  const day = 86_400_000;
  await ctx.tx.insert(apiKeys).values({
    customerId: ctx.customers.acme,
    name: 'HR system (old)',
    prefix: 'kst_Xq3v9LmA',
    secretHash: createHash('sha256').update(randomBytes(32)).digest('hex'),
    scopes: ['cases.view_case', 'cases.add_case'],
    createdById: ctx.users['admin@acme.test']?.id ?? null,
    createdAt: new Date(now.getTime() - 40 * day),
    lastUsedAt: new Date(now.getTime() - 12 * day),
    revokedAt: new Date(now.getTime() - 10 * day),
  });
}
