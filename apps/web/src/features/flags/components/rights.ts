import { type Entitlement, hasEntitlement, hasPermission, type Permission } from '@kestrel/domain';
import { heldRights } from '../../../app/navigation';
import { useSession } from '../../../app/session/session-store';

export function useRights() {
  const session = useSession();
  const { permissions, entitlements } = heldRights(session);
  return {
    can: (p: Permission) => hasPermission(permissions, p),
    entitled: (e: Entitlement) => hasEntitlement(entitlements, e),
  };
}
