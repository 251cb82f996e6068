import type { Entitlement, Permission } from '@kestrel/domain';

export type UserType = 'ProductUser' | 'SubjectUser';

/** The authenticated user of a session, as cached with it. */
/** Ops staff: a product user of no customer who holds customers.ops_access. */
export function isOpsUser(
  type: UserType,
  homeCustomerId: number | null,
  permissions: readonly string[] | ReadonlySet<string>,
): boolean {
  const has = Array.isArray(permissions)
    ? permissions.includes('customers.ops_access')
    : (permissions as ReadonlySet<string>).has('customers.ops_access');
  return type === 'ProductUser' && homeCustomerId === null && has;
}

export interface SessionUser {
  type: UserType;
  id: number;
  /** The customer the user belongs to (null for ops staff). */
  homeCustomerId: number | null;
  isOps: boolean;
  permissions: ReadonlySet<Permission>;
  name: string;
  username: string;
  /**
   * A product user of a customer that requires two-factor sign-in who has not set it up yet
   * (issue 30): until they do, the server answers only their own account's routes.
   */
  totpSetupRequired: boolean;
}

/** A session as every request sees it (read from the cache or the sessions table). */
export interface SessionState {
  id: number;
  tokenHash: string;
  csrfToken: string;
  user: SessionUser | null;
  /** The customer the session acts for: the user's own, or the ops session's. */
  customerId: number | null;
  entitlements: readonly Entitlement[];
  createdAt: Date;
  lastSeenAt: Date;
  authenticatedAt: Date | null;
}

/**
 * Who is acting, passed to services and audit. Built from the request by `actorOf(request)`;
 * background jobs and seeds build one by hand.
 */
export interface Actor {
  type: UserType | null;
  id: number | null;
  name: string;
  /** The tenant of this action (the session customer). */
  customerId: number | null;
  isOps: boolean;
  permissions: ReadonlySet<Permission>;
  ip: string | null;
  requestId: string | null;
  /**
   * The address the request came through when it was one of the brands' hosts
   * (`http://127.0.0.1:8080`): emails it causes are in that brand and link there (emailSite).
   */
  brandAddress?: string;
}

export const systemActor: Actor = {
  type: null,
  id: null,
  name: 'system',
  customerId: null,
  isOps: false,
  permissions: new Set(),
  ip: null,
  requestId: null,
};
