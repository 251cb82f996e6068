import type { RoleOut, SegmentOut, UserOut } from '@kestrel/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../api/client';
import { ApiFailure, defineResource } from '../../api/resource';
import { users } from '../../api/users';
import { notify } from '../../lib/notify';

export { users };
export type User = UserOut;
export type Role = RoleOut;

/** /api/roles/: the organisation's roles (custom ones added, changed, deleted when unused). */
export const roles = defineResource<Role>('/api/roles/', { item: 'role', plural: 'roles' });

/** /api/segments/: the segments a user may be limited to (read here for the choices). */
export const segmentChoices = defineResource<SegmentOut>('/api/segments/', {
  item: 'segment',
  plural: 'segments',
});

/** The actions of one user's page, each a POST to /api/users/{id}/{action}/. */
export type UserAction = 'deactivate' | 'reactivate' | 'resend-invitation' | 'revoke-invitation';

const DONE: Record<UserAction, string> = {
  deactivate: 'User deactivated: their sessions have ended',
  reactivate: 'User reactivated',
  'resend-invitation': 'Invitation sent again',
  'revoke-invitation': 'Invitation revoked',
};

/** Runs an action on a user, toasting the outcome (the server's refusal word for word). */
export function useUserAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: number; action: UserAction }) => {
      const r = await request<User>('POST', `/api/users/${id}/${action}/`);
      if (!r.ok) {
        const body = r.data as { non_field_errors?: string[]; detail?: string };
        const message =
          body.non_field_errors?.[0] ?? body.detail ?? 'Something went wrong. Try again.';
        notify.error(message);
        throw new ApiFailure(r.status, r.data, message);
      }
      notify.success(DONE[action]);
      return r.data;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: users.key }),
  });
}

/** A user's full name, or their email when they have none. */
export const nameOf = (u: Pick<User, 'first_name' | 'last_name' | 'email'>) =>
  `${u.first_name} ${u.last_name}`.trim() || u.email;
