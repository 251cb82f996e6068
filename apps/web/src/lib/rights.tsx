import {
  canEditProcessRequirements,
  type Entitlement,
  hasEntitlement,
  hasPermission,
  type Permission,
} from '@kestrel/domain';
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
  /** True when the session may choose a process's checks: ops, or a demo organisation. */
  editsRequirements: boolean;
}

/** Whether the session may choose process checks (spec point 6; the server holds the same rule). */
export function editsRequirements(session: SessionState): boolean {
  const profile = session.bootstrap?.profile;
  if (profile?.user_type !== 'ProductUser') return false;
  return canEditProcessRequirements({
    isOps: profile.is_ops,
    demoMode: profile.customer?.demo_mode ?? false,
  });
}

/** What this session may do: the one authorization hook of the screens. */
export function useRights(): Rights {
  const session = useSession();
  const { permissions, entitlements } = heldRights(session);
  return {
    can: (required) => hasPermission(permissions, required),
    entitled: (required) => hasEntitlement(entitlements, required),
    editsRequirements: editsRequirements(session),
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
