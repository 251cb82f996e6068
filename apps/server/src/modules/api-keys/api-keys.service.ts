import { createHmac, randomBytes } from 'node:crypto';
import {
  type ApiKeyCreate,
  type ApiKeyOut,
  ENTITLEMENTS,
  type Entitlement,
  isPermission,
  type Permission,
} from '@kestrel/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor, SessionState } from '../../platform/context.js';
import {
  NotAuthenticatedError,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
} from '../../platform/errors.js';
import type { SecretSource } from '../../platform/server-secrets.js';
import { SYSTEM_TX } from '../../platform/service-context.js';
import { productUsers } from '../users/users.table.js';
import { apiKeys } from './api-keys.table.js';

export const API_KEY_CT = 'api_keys.apikey';
/** The installation's pepper of the keys' hashes (server_secrets). */
export const API_KEY_PEPPER_SECRET = 'api_key_pepper';
/** A key: `kst_` + 43 base64url characters (256 random bits). */
const KEY_SHAPE = /^kst_[A-Za-z0-9_-]{43}$/;
/** Characters of a key shown in lists (`kst_` and the first 8 random ones). */
const PREFIX_LENGTH = 12;
/** last_used_at is written at most this often per key. */
export const LAST_USED_EVERY_MS = 60_000;
/** Requests a key may make per rate-limit window, unless configured otherwise. */
export const API_KEY_REQUESTS_PER_WINDOW = 1000;

export const INVALID_API_KEY = 'Invalid API key.';
export const REVOKED_API_KEY = 'This API key has been revoked.';
export const SCOPES_ABOVE_CREATOR = 'A key cannot hold a permission you do not hold yourself.';

type KeyRow = typeof apiKeys.$inferSelect;

/**
 * The stored hash of a key: HMAC-SHA256 under the installation's pepper. A key is 256 random
 * bits, so a slow password hash (argon2id) adds nothing against guessing and would cost every
 * request tens of milliseconds; the pepper keeps a copied table from being checked offline.
 */
export function apiKeyHash(secrets: SecretSource, key: string): string {
  return createHmac('sha256', secrets.get(API_KEY_PEPPER_SECRET)).update(key).digest('hex');
}

/** A new random key (shown once). */
export function newApiKey(): string {
  return `kst_${randomBytes(32).toString('base64url')}`;
}

export function presentApiKey(row: KeyRow, createdBy: string): ApiKeyOut {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    created_by: createdBy,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}

const creatorName = sql<string>`coalesce(nullif(trim(${productUsers.firstName} || ' ' || ${productUsers.lastName}), ''), ${productUsers.username}, '')`;

/** The customer's keys, newest first (RLS: the actor's customer). */
export async function listApiKeys(tx: Tx): Promise<ApiKeyOut[]> {
  const rows = await tx
    .select({ key: apiKeys, createdBy: creatorName })
    .from(apiKeys)
    .leftJoin(productUsers, eq(productUsers.id, apiKeys.createdById))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(500);
  return rows.map((r) => presentApiKey(r.key, r.createdBy ?? ''));
}

/** Makes a key for the actor's customer with `scopes` (none above the actor's); audited. */
export async function createApiKey(
  tx: Tx,
  actor: Actor,
  secrets: SecretSource,
  data: ApiKeyCreate,
  now: Date,
): Promise<ApiKeyOut & { secret: string }> {
  if (actor.customerId === null || actor.id === null) throw new PermissionDeniedError();
  const scopes = [...new Set(data.scopes)].filter(isPermission);
  const above = scopes.filter((s) => !actor.permissions.has(s));
  if (above.length > 0) throw ValidationError.of('scopes', SCOPES_ABOVE_CREATOR);
  const secret = newApiKey();
  const [row] = await tx
    .insert(apiKeys)
    .values({
      customerId: actor.customerId,
      name: data.name,
      prefix: secret.slice(0, PREFIX_LENGTH),
      secretHash: apiKeyHash(secrets, secret),
      scopes,
      createdById: actor.id,
      createdAt: now,
    })
    .returning();
  if (!row) throw new NotFoundError();
  await recordAudit(tx, actor, {
    verb: 'created',
    contentType: API_KEY_CT,
    objectId: row.id,
    objectRepr: `${row.name} (${row.prefix}…)`,
    changes: { scopes },
  });
  return { ...presentApiKey(row, actor.name), secret };
}

/** Revokes a key of the actor's customer (again: no change); 404 for another's; audited. */
export async function revokeApiKey(tx: Tx, actor: Actor, id: number, now: Date): Promise<void> {
  const [row] = await tx.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
  if (!row) throw new NotFoundError();
  if (row.revokedAt) return;
  await tx
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.customerId, row.customerId), eq(apiKeys.id, id)));
  await recordAudit(tx, actor, {
    verb: 'updated',
    contentType: API_KEY_CT,
    objectId: row.id,
    objectRepr: `${row.name} (${row.prefix}…)`,
    changes: { revoked_at: [null, now.toISOString()] },
  });
}

function isEntitlement(v: string): v is Entitlement {
  return (ENTITLEMENTS as readonly string[]).includes(v);
}

/**
 * The state a request with `Authorization: Bearer <key>` acts with: a product user of the key's
 * customer (its creator's id, for what records who acted) holding exactly the key's scopes. 401
 * for an unknown or revoked key (or an inactive customer), 429 past the key's requests per
 * window. Notes its last use at most once a minute.
 */
export async function resolveApiKey(request: FastifyRequest, token: string): Promise<SessionState> {
  const { db, secrets, clock, rateLimiter, config } = request.server.deps;
  if (!KEY_SHAPE.test(token)) throw new NotAuthenticatedError(INVALID_API_KEY);
  const hash = apiKeyHash(secrets, token);
  const found = await db.transaction(SYSTEM_TX, async (tx) => {
    const rows = await tx.execute<{
      customer_id: number;
      id: number;
      name: string;
      prefix: string;
      scopes: string[];
      created_by_id: number | null;
      created_at: string | Date;
      last_used_at: string | Date | null;
      revoked_at: string | Date | null;
      customer_active: boolean;
      entitlements: string[];
    }>(sql`
      select k.customer_id, k.id, k.name, k.prefix, k.scopes, k.created_by_id, k.created_at,
        k.last_used_at, k.revoked_at, c.is_active as customer_active,
        (select coalesce(array_agg(e.entitlement), '{}') from customer_entitlements e
          where e.customer_id = k.customer_id) as entitlements
      from api_keys k join customers c on c.id = k.customer_id
      where k.secret_hash = ${hash}
      limit 1`);
    return rows[0] ?? null;
  });
  if (found?.customer_active !== true) throw new NotAuthenticatedError(INVALID_API_KEY);
  if (found.revoked_at !== null) throw new NotAuthenticatedError(REVOKED_API_KEY);
  await rateLimiter.hit([
    {
      key: `api-key:${found.customer_id}:${found.id}`,
      max: config.rateLimits.apiKeyRequests ?? API_KEY_REQUESTS_PER_WINDOW,
    },
  ]);
  const now = clock.now();
  const lastUsed = found.last_used_at === null ? null : new Date(found.last_used_at);
  if (lastUsed === null || now.getTime() - lastUsed.getTime() >= LAST_USED_EVERY_MS) {
    await db.transaction(SYSTEM_TX, (tx) =>
      tx
        .update(apiKeys)
        .set({ lastUsedAt: now })
        .where(and(eq(apiKeys.customerId, found.customer_id), eq(apiKeys.id, found.id))),
    );
  }
  const permissions = new Set<Permission>(found.scopes.filter(isPermission));
  return {
    id: 0,
    tokenHash: hash,
    csrfToken: '',
    user: {
      type: 'ProductUser',
      id: found.created_by_id ?? 0,
      homeCustomerId: found.customer_id,
      isOps: false,
      permissions,
      name: `API key ${found.name} (${found.prefix}…)`,
      username: `api-key:${found.prefix}`,
      totpSetupRequired: false,
    },
    customerId: found.customer_id,
    entitlements: found.entitlements.filter(isEntitlement),
    createdAt: new Date(found.created_at),
    lastSeenAt: now,
    authenticatedAt: now,
  };
}
