import type {
  ApplicationDetailOut,
  LicenceAction,
  LicenceDefinitionOut,
  LicenceGroupOut,
  LicenceOut,
  LicenceSubGroupOut,
  RegisterEntryOut,
} from '@kestrel/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { list, request } from '../../api/client';
import { ApiFailure, defineResource } from '../../api/resource';

/** A licence group as /api/lms/licence-groups/ answers it (contract: licenceGroupOut). */
export type LicenceGroup = LicenceGroupOut;
/** A sub-group (contract: licenceSubGroupOut). */
export type LicenceSubGroup = LicenceSubGroupOut;
/** An issued licence with its trail (contract: licenceOut). */
export type Licence = LicenceOut;
/** A licence definition, as a sub-group lists them (contract: licenceDefinitionOut). */
export type LicenceDefinition = LicenceDefinitionOut;

/** /api/lms/licence-groups/: list, retrieve, create, update. */
export const licenceGroups = defineResource<LicenceGroup>('/api/lms/licence-groups/', {
  item: 'licence group',
  plural: 'licence groups',
});

/** /api/lms/licence-sub-groups/: list (`group` filter), retrieve, create, update. */
export const licenceSubGroups = defineResource<LicenceSubGroup>('/api/lms/licence-sub-groups/', {
  item: 'sub-group',
  plural: 'sub-groups',
});

/** /api/lms/definitions/: read here for a sub-group's definitions (`sub_group` filter). */
export const licenceDefinitions = defineResource<LicenceDefinition>('/api/lms/definitions/', {
  item: 'licence definition',
  plural: 'licence definitions',
});

/** /api/lms/licences/: list (status, group, sub_group, q), retrieve, issue. */
export const licences = defineResource<Licence>('/api/lms/licences/', {
  item: 'licence',
  plural: 'licences',
});

/**
 * POST /api/lms/licences/{id}/{action}/ with its reason; a refusal (400) is thrown as an
 * ApiFailure whose body the dialog shows. Every licence query (and the groups' counts) refresh.
 */
export function useLicenceAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: number; action: LicenceAction; reason: string }) => {
      const r = await request<Licence>('POST', `/api/lms/licences/${input.id}/${input.action}/`, {
        body: { reason: input.reason },
      });
      if (!r.ok) throw new ApiFailure(r.status, r.data, null);
      return r.data;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: licences.key }),
  });
}

/** One entry of the register of refusals, suspensions and revocations (contract: registerEntryOut). */
export type RegisterEntry = RegisterEntryOut;

/**
 * GET /api/lms/register/?q=&dob=: the council's register, newest first (a failure is thrown: the
 * search says so).
 */
export function registerOptions(params: { q?: string | undefined; dob?: string | undefined }) {
  return queryOptions({
    queryKey: ['lms-register', params],
    queryFn: async ({ signal }) => {
      const r = await list<RegisterEntry>(
        '/api/lms/register/',
        { ...params, page_size: 50 },
        signal,
      );
      if (!r.ok) throw new ApiFailure(r.status, r.error ?? {}, null);
      return r.data;
    },
  });
}

/**
 * POST /api/lms/licences/{id}/renew/ with the holder's HMRC tax check code: a renewal application
 * on the definition's open renewal portal. A refusal (400) is thrown as an ApiFailure.
 */
export function useRenewLicence() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: number; tax_check_code: string | undefined }) => {
      const r = await request<ApplicationDetailOut>(
        'POST',
        `/api/lms/licences/${input.id}/renew/`,
        { body: input.tax_check_code ? { tax_check_code: input.tax_check_code } : {} },
      );
      if (!r.ok) throw new ApiFailure(r.status, r.data, null);
      return r.data;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: licences.key }),
  });
}
