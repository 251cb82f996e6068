import { ENTITLEMENTS, type Entitlement, isPermission, type Permission } from '@kestrel/domain';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Database, Tx } from '../db/connection.js';
import type { Clock } from './clock.js';
import { isOpsUser, type SessionState, type SessionUser, type UserType } from './context.js';
import { SYSTEM_TX } from './service-context.js';
import { sessions } from './tables/sessions.table.js';
import { hashToken, isTokenShaped, newToken } from './tokens.js';

export interface SessionTimes {
  cacheMs: number;
  idleMs: number;
  absoluteMs: number;
}

export interface SessionMeta {
  ip: string | null;
  userAgent: string | null;
}

/** last_seen_at is written at most this often per session (idle timeout precision). */
const TOUCH_EVERY_MS = 60_000;
const MAX_CACHE = 20_000;

interface CacheEntry {
  state: SessionState;
  loadedAt: number;
  /** The count of forgettings heard when its load began. */
  heardAt: number;
}

function toDate(v: unknown): Date {
  return v instanceof Date ? v : new Date(String(v));
}
function toDateOrNull(v: unknown): Date | null {
  return v === null || v === undefined ? null : toDate(v);
}
function isEntitlement(v: string): v is Entitlement {
  return (ENTITLEMENTS as readonly string[]).includes(v);
}
function toStrings(v: unknown): string[] {
  return Array.isArray(v) ? v.map(String) : [];
}

/** The notification channel on which session stores tell each other what to forget. */
export const SESSIONS_CHANNEL = 'kestrel_sessions';

/**
 * Server-side sessions in the database, shared by every server process, with a short-lived
 * in-process cache: a hit costs no round trip. A change made through this store (logout, password
 * change, ops session, a user's roles) drops the cache entries at once here and, through a
 * database notification (`SESSIONS_CHANNEL`), in every other process on the same database. The
 * notification of a session's end is sent inside the transaction that deletes it (PostgreSQL
 * delivers it to every listener at its commit, never for a rollback). A cached entry is used only
 * after this process has caught up with the notifications committed before the request
 * (`Database.caughtUp`, one shared round trip on the listening connection) and is checked against
 * what they said: a logout or deactivation answered by one process is seen by the next request to
 * any other (decision 020). The cache's `cacheMs` only bounds how long an entry lives if a
 * notification is lost. Expiry is checked against the injected clock on every request, hit or
 * miss.
 */
export class SessionStore {
  private readonly cache = new Map<string, CacheEntry>();
  /** Counts the forgettings heard from the channel. */
  private heardCount = 0;
  /** The count at the last "forget everything". */
  private allForgottenAt = 0;
  /** What was forgotten (`t:<hash>`, `u:<type>:<id>`) and at which count, kept for a minute. */
  private readonly forgotten = new Map<string, { at: number; when: number }>();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly times: SessionTimes,
  ) {}

  /** Starts hearing what other processes (and this one) tell the stores to forget. */
  start(): Promise<void> {
    return this.db.listen(SESSIONS_CHANNEL, (message) => this.heard(message));
  }

  /** `*` or null: everything; `t:<hash>`: one session; `u:<type>:<id>`: a user's sessions. */
  private heard(message: string | null): void {
    const at = ++this.heardCount;
    if (message === null || message === '*') {
      this.allForgottenAt = at;
      this.cache.clear();
      return;
    }
    const now = performance.now();
    this.forgotten.set(message, { at, when: now });
    if (this.forgotten.size > 1000) {
      for (const [k, v] of this.forgotten) if (now - v.when > 60_000) this.forgotten.delete(k);
    }
    if (message.startsWith('t:')) this.cache.delete(message.slice(2));
    else if (message.startsWith('u:')) {
      const [, type, id] = message.split(':');
      this.evictUser(type, Number(id));
    }
  }

  /**
   * True when something heard since `since` concerns this session: a load begun before it may
   * hold what was just revoked, so it is used once but not cached.
   */
  private forgottenSince(since: number, hash: string, state: SessionState): boolean {
    if (this.allForgottenAt > since) return true;
    if ((this.forgotten.get(`t:${hash}`)?.at ?? 0) > since) return true;
    const u = state.user;
    return u !== null && (this.forgotten.get(`u:${u.type}:${u.id}`)?.at ?? 0) > since;
  }

  private evictUser(type: string | undefined, id: number, keepId?: number): void {
    for (const [hash, entry] of this.cache) {
      const u = entry.state.user;
      if (u && u.type === type && u.id === id && entry.state.id !== keepId) this.cache.delete(hash);
    }
  }

  /**
   * Tells every process to forget `message`: `write` runs the change (null: none, it committed
   * before) in the transaction that sends the notification, delivered at its commit. A forgetting
   * after a change that committed already does not fail for a lost notification (the others'
   * entries then expire).
   */
  private async tell(message: string, write: ((tx: Tx) => Promise<unknown>) | null = null) {
    const sent = this.db.transaction(SYSTEM_TX, async (tx) => {
      await write?.(tx);
      await tx.execute(sql`select pg_notify(${SESSIONS_CHANNEL}, ${message})`);
    });
    await (write ? sent : sent.catch(() => undefined));
  }

  /** The valid session for a cookie token, or null (unknown, expired, or user disabled). */
  async resolve(token: string | undefined): Promise<SessionState | null> {
    if (!isTokenShaped(token)) return null;
    const hash = hashToken(token);
    const now = this.clock.now();
    let entry = this.cache.get(hash);
    // a cached entry waits for the notifications committed before now (a logout elsewhere)
    if (
      entry &&
      !(await this.db.caughtUp().then(
        () => true,
        () => false,
      ))
    )
      entry = undefined;
    if (entry && this.forgottenSince(entry.heardAt, hash, entry.state)) entry = undefined;
    if (!entry || performance.now() - entry.loadedAt > this.times.cacheMs) {
      const since = this.heardCount;
      const state = await this.load(hash);
      if (!state) {
        this.cache.delete(hash);
        return null;
      }
      entry = { state, loadedAt: performance.now(), heardAt: since };
      // A forgetting heard while loading may postdate what was read: use it, do not keep it.
      if (!this.forgottenSince(since, hash, state)) this.remember(hash, entry);
    }
    const s = entry.state;
    if (this.isExpired(s, now)) {
      this.cache.delete(hash);
      await this.db.transaction(SYSTEM_TX, (tx) =>
        tx.delete(sessions).where(eq(sessions.id, s.id)),
      );
      return null;
    }
    if (now.getTime() - s.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      s.lastSeenAt = now;
      await this.db.transaction(SYSTEM_TX, (tx) =>
        tx.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, s.id)),
      );
    }
    return s;
  }

  private isExpired(s: SessionState, now: Date): boolean {
    const t = now.getTime();
    if (t - s.lastSeenAt.getTime() > this.times.idleMs) return true;
    const since = s.authenticatedAt ?? s.createdAt;
    return t - since.getTime() > this.times.absoluteMs;
  }

  private remember(hash: string, entry: CacheEntry): void {
    this.cache.delete(hash);
    this.cache.set(hash, entry);
    if (this.cache.size > MAX_CACHE) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
  }

  /** One round trip: the session, its user, permissions and the session customer's entitlements. */
  private async load(hash: string): Promise<SessionState | null> {
    if (!/^[0-9a-f]{64}$/.test(hash)) return null;
    const rows = await this.db.readInline(
      SYSTEM_TX,
      `select s.id, s.csrf_token, s.user_type, s.user_id, s.customer_id, s.created_at,
         s.last_seen_at, s.authenticated_at,
         -- a subject's home is the customer its session was opened for (it may be held by several)
         coalesce(pu.customer_id, case when su.id is not null then s.customer_id end) as home_customer_id,
         coalesce(pu.username, su.email) as username,
         trim(coalesce(pu.first_name, su.first_name, '') || ' ' || coalesce(pu.last_name, su.last_name, '')) as name,
         coalesce(pu.is_active, su.is_active) as is_active,
         (pu.id is not null and not pu.totp_enabled and coalesce((select c.require_totp
            from customers c where c.id = pu.customer_id), false)) as totp_setup_required,
         (select coalesce(array_agg(distinct p), '{}') from product_user_roles ur
            join roles r on r.id = ur.role_id cross join unnest(r.permissions) p
           where ur.user_id = pu.id) as permissions,
         (select coalesce(array_agg(e.entitlement), '{}') from customer_entitlements e
           where e.customer_id = s.customer_id) as entitlements
       from sessions s
       left join product_users pu on s.user_type = 'ProductUser' and pu.id = s.user_id
       left join subject_users su on s.user_type = 'SubjectUser' and su.id = s.user_id
       where s.token_hash = '${hash}'`,
    );
    const r = rows[0];
    if (!r) return null;
    let user: SessionUser | null = null;
    const userType = r.user_type;
    if ((userType === 'ProductUser' || userType === 'SubjectUser') && r.user_id !== null) {
      if (r.is_active !== true) return null;
      const permissions = new Set<Permission>(toStrings(r.permissions).filter(isPermission));
      const homeCustomerId = r.home_customer_id === null ? null : Number(r.home_customer_id);
      user = {
        type: userType,
        id: Number(r.user_id),
        homeCustomerId,
        isOps: isOpsUser(userType, homeCustomerId, permissions),
        permissions,
        name: String(r.name || r.username || ''),
        username: String(r.username ?? ''),
        totpSetupRequired: r.totp_setup_required === true,
      };
    }
    return {
      id: Number(r.id),
      tokenHash: hash,
      csrfToken: String(r.csrf_token),
      user,
      customerId: r.customer_id === null ? null : Number(r.customer_id),
      entitlements: toStrings(r.entitlements).filter(isEntitlement),
      createdAt: toDate(r.created_at),
      lastSeenAt: toDate(r.last_seen_at),
      authenticatedAt: toDateOrNull(r.authenticated_at),
    };
  }

  /**
   * Starts a new session row and returns its token (the only time the token exists in clear).
   * Used for anonymous visitors, at login (the old session is ended: rotation) and for ops
   * customer switches.
   */
  async create(opts: {
    user: { type: UserType; id: number } | null;
    customerId: number | null;
    meta: SessionMeta;
    replaces?: SessionState | null;
    csrfToken?: string;
    authenticatedAt?: Date | null;
    /** More writes of the same transaction (the audit of a login or a customer switch). */
    also?: (tx: Tx) => Promise<unknown>;
  }): Promise<{ token: string; csrfToken: string }> {
    const token = newToken();
    const csrfToken = opts.csrfToken ?? newToken();
    const now = this.clock.now();
    const replaces = opts.replaces ?? null;
    const write = async (tx: Tx) => {
      if (replaces) await tx.delete(sessions).where(eq(sessions.id, replaces.id));
      await tx.insert(sessions).values({
        tokenHash: hashToken(token),
        csrfToken,
        userType: opts.user?.type ?? null,
        userId: opts.user?.id ?? null,
        customerId: opts.customerId,
        createdAt: now,
        lastSeenAt: now,
        authenticatedAt: opts.user ? (opts.authenticatedAt ?? now) : null,
        ip: opts.meta.ip?.slice(0, 64) ?? null,
        userAgent: opts.meta.userAgent?.slice(0, 300) ?? null,
      });
      await opts.also?.(tx);
    };
    if (replaces) {
      this.cache.delete(replaces.tokenHash);
      await this.tell(`t:${replaces.tokenHash}`, write);
    } else {
      await this.db.transaction(SYSTEM_TX, write);
    }
    return { token, csrfToken };
  }

  /** Ends one session (logout); `also` writes more in the same transaction (its audit). */
  async destroy(state: SessionState, also?: (tx: Tx) => Promise<unknown>): Promise<void> {
    this.cache.delete(state.tokenHash);
    await this.tell(`t:${state.tokenHash}`, async (tx) => {
      await tx.delete(sessions).where(eq(sessions.id, state.id));
      await also?.(tx);
    });
  }

  /** Ends every session of a user except `keepId` (password or TOTP change). */
  async destroyAllForUser(type: UserType, id: number, keepId?: number): Promise<void> {
    this.evictUser(type, id, keepId);
    const who = and(eq(sessions.userType, type), eq(sessions.userId, id));
    await this.tell(`u:${type}:${id}`, (tx) =>
      tx.delete(sessions).where(keepId === undefined ? who : and(who, ne(sessions.id, keepId))),
    );
  }

  /** Forgets cached sessions of a user so their next request re-reads roles and profile. */
  async forgetUser(type: UserType, id: number): Promise<void> {
    this.evictUser(type, id);
    await this.tell(`u:${type}:${id}`);
  }

  /** Forgets every cached session (roles or entitlements changed). */
  async forgetAll(): Promise<void> {
    this.cache.clear();
    await this.tell('*');
  }
}
