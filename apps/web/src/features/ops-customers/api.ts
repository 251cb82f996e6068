import type { OpsCustomerUserInvite, OpsCustomerUserOut } from '@kestrel/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { listAll, request } from '../../api/client';
import { opsCustomers } from '../../api/customers';
import { notify } from '../../lib/notify';

export { opsCustomers };

export const ENTITLEMENT_NAMES = {
  regportals: 'Registration portals',
  cycles: 'Cycles (repeat checks)',
  subject_dedup: 'Subject de-duplication',
} as const;

export const BRAND_NAMES = { kestrel: 'Kestrel Checks', harrier: 'Harrier Vetting' } as const;

export interface ActivityTypeChoice {
  id: number;
  code: string;
  name: string;
}

/** The activity types a customer may be given (every type for ops outside an ops session). */
export const activityTypeChoices = () =>
  queryOptions({
    queryKey: ['ops-customers', 'activity-types'],
    queryFn: async () => {
      const r = await listAll<ActivityTypeChoice>('/api/activity-types/');
      return r.ok ? r.data : [];
    },
    staleTime: 5 * 60_000,
  });

const usersPath = (customer: number) => `/api/ops/customers/${customer}/users/`;
const usersKey = (customer: number) => ['ops-customers', customer, 'users'];

/** A customer's staff (GET /api/ops/customers/{id}/users/). */
export const customerUsersOptions = (customer: number) =>
  queryOptions({
    queryKey: usersKey(customer),
    queryFn: async () => {
      const r = await request<{ results: OpsCustomerUserOut[] }>('GET', usersPath(customer));
      if (!r.ok) {
        notify.error('Error loading users');
        return { results: [], failed: true as const };
      }
      return r.data;
    },
  });

/** Invite one (POST), or switch one on or off (PATCH is_active: deactivating ends sessions). */
export function useCustomerUserActions(customer: number) {
  const client = useQueryClient();
  const done = () => {
    void client.invalidateQueries({ queryKey: usersKey(customer) });
    void client.invalidateQueries({ queryKey: opsCustomers.key });
  };
  const invite = useMutation({
    mutationFn: async (values: OpsCustomerUserInvite) => {
      const r = await request<OpsCustomerUserOut>('POST', usersPath(customer), {
        body: values,
        expect: 201,
      });
      if (!r.ok) throw r.data;
      return r.data;
    },
    onSuccess: (u) => {
      notify.success(`Invitation sent to ${u.email}`);
      done();
    },
  });
  const setActive = useMutation({
    mutationFn: async ({ id, is_active }: { id: number; is_active: boolean }) => {
      const r = await request<OpsCustomerUserOut>('PATCH', `${usersPath(customer)}${id}/`, {
        body: { is_active },
      });
      if (!r.ok) throw r.data;
      return r.data;
    },
    onSuccess: (u) => {
      notify.success(u.is_active ? `${u.email} reactivated` : `${u.email} deactivated`);
      done();
    },
    onError: () => notify.error('Error updating user'),
  });
  return { invite, setActive };
}
