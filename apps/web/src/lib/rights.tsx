import { type Entitlement, hasEntitlement, hasPermission, type Permission } from '@kestrel/domain';
import type { ReactNode } from 'react';
import { useSession } from './session/session-store';
import type { SessionState } from './session/types';

/** Permissions and entitlements the session holds (from bootstrap; only product users hold any). */
export function heldRights(session: SessionState): {
  permissions: string[];
  entitlements: string[];
} {
  const profile = session.bootstrap?.profile;
  if (profile?.user_type !== 'ProductUser') return { permissions: [], entitlements: [] };
  return {
    permissions: profile.session_permissions,
    entitlements: session.bootstrap?.entitlements ?? profile.entitlements,
  };
}

export interface Rights {
  /** True when the session holds every permission given (spec point 6). */
  can: (required: Permission | readonly Permission[]) => boolean;
  /** True when the customer holds every entitlement given. */
  entitled: (required: Entitlement | readonly Entitlement[]) => boolean;
}

/** What this session may do: the one authorization hook of the screens. */
export function useRights(): Rights {
  const { permissions, entitlements } = heldRights(useSession());
  return {
    can: (required) => hasPermission(permissions, required),
    entitled: (required) => hasEntitlement(entitlements, required),
  };
}

/**
 * Renders its children only when the session holds the permissions and the entitlements given
 * (both optional), otherwise `fallback` (nothing by default).
 */
export function Can({
  permission = [],
  entitlement = [],
  fallback = null,
  children,
}: {
  permission?: Permission | readonly Permission[];
  entitlement?: Entitlement | readonly Entitlement[];
  fallback?: ReactNode;
  children: ReactNode;
}) {
  const { can, entitled } = useRights();
  return can(permission) && entitled(entitlement) ? children : fallback;
}
