import { hasPermission, type Permission } from '@kestrel/domain';
import { heldRights } from '../../../app/navigation';
import { useSession } from '../../../app/session/session-store';

/** What this session may do on processes (spec point 6). */
export function useProcessRights() {
  const session = useSession();
  const { permissions } = heldRights(session);
  return { can: (p: Permission) => hasPermission(permissions, p) };
}
