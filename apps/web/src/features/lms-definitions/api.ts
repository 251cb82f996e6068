import type {
  ApplicationDetailOut,
  ApplicationOut,
  ApplicationPortalOut,
  LicenceDefinitionOut,
  LicenceSubGroupOut,
} from '@kestrel/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { list, request } from '../../api/client';
import type { QueryParams } from '../../api/query-string';
import { ApiFailure, defineResource } from '../../api/resource';

/** A licence definition as /api/lms/definitions/ answers it (contract: licenceDefinitionOut). */
export type Definition = LicenceDefinitionOut;
/** An application portal of a definition (contract: applicationPortalOut). */
export type Portal = ApplicationPortalOut;
/** A row of /api/lms/applications/ (contract: applicationOut). */
export type Application = ApplicationOut;
/** /api/lms/applications/{id}/: with the register matches and the trail. */
export type ApplicationDetail = ApplicationDetailOut;
export type SubGroup = LicenceSubGroupOut;

/** /api/lms/definitions/: the council's licence definitions (`sub_group` filter). */
export const definitions = defineResource<Definition>('/api/lms/definitions/', {
  item: 'licence definition',
  plural: 'licence definitions',
});

/** /api/lms/definitions/{id}/application_portals/: one definition's application portals. */
export const definitionPortals = (definitionId: number | string) =>
  defineResource<Portal>(`/api/lms/definitions/${definitionId}/application_portals/`, {
    item: 'application portal',
    plural: 'application portals',
  });

/** /api/lms/licence-sub-groups/: the sub-groups a definition belongs to (the add form's choice). */
export const subGroups = defineResource<SubGroup>('/api/lms/licence-sub-groups/', {
  item: 'licence sub-group',
  plural: 'licence sub-groups',
});

/** /api/lms/applications/ (filters: state (comma-separated), definition, portal, q). */
export const applications = defineResource<Application, ApplicationDetail>(
  '/api/lms/applications/',
  { item: 'application', plural: 'applications' },
);

/** How many applications match `params` (one row asked for: the count is what is used). */
export function useApplicationCount(params: QueryParams) {
  return useQuery({
    queryKey: applications.keys.other('count', params),
    queryFn: async ({ signal }) => {
      const r = await list<Application>(applications.path, { ...params, page_size: 1 }, signal);
      return r.ok ? r.data.count : null;
    },
  });
}

/** The decisions and the tax check on an application (POST /api/lms/applications/{id}/...). */
export type ApplicationAction =
  | 'grant'
  | 'refuse'
  | 'request-info'
  | 'record-payment'
  | 'tax-check';

/**
 * POST an action on an application; a refusal (400, 409) is thrown as an ApiFailure whose
 * body the dialog shows. Every application list and the application itself refresh.
 */
export function useApplicationAction(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({
      action,
      body,
    }: {
      action: ApplicationAction;
      body?: Record<string, string>;
    }) => {
      const r = await request<ApplicationDetail>('POST', `/api/lms/applications/${id}/${action}/`, {
        body: body ?? {},
      });
      if (!r.ok) throw new ApiFailure(r.status, r.data, null);
      return r.data;
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: applications.key });
      void client.invalidateQueries({ queryKey: definitions.key });
    },
  });
}

/**
 * PATCH /api/lms/definitions/{id}/requirements/{activity_type}/: one check's configuration
 * (issue 32), replaced whole; a 400 is thrown as an ApiFailure (the kit form maps its
 * `config.{field}` errors to the fields). The definition's pages refresh.
 */
export function useRequirementConfig(definitionId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({
      activityType,
      config,
    }: {
      activityType: string;
      config: Record<string, unknown>;
    }) => {
      const r = await request<Definition>(
        'PATCH',
        `/api/lms/definitions/${definitionId}/requirements/${encodeURIComponent(activityType)}/`,
        { body: { config } },
      );
      if (!r.ok) throw new ApiFailure(r.status, r.data, null);
      return r.data;
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: definitions.key });
    },
  });
}
