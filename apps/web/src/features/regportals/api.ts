import {
  type PortalRegistrationDetailOut,
  type PortalRegistrationOut,
  REGISTRATION_MESSAGES,
  type RegistrationConfirm,
  type RegistrationRequest,
  type RegistrationResultOut,
  type RegPortalOut,
  type RegPortalPublicOut,
  type SegmentOut,
} from '@kestrel/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiResult, request } from '../../api/client';
import { ApiFailure, defineResource } from '../../api/resource';
import { notify } from '../../lib/notify';

/** A registration portal as /api/processes/{id}/registration-portals/ answers it (regPortalOut). */
export type RegPortal = RegPortalOut;
/** A registration in /api/portal-registrations/ (portalRegistrationOut). */
export type PortalRegistration = PortalRegistrationOut;
/** One registration with its events (portalRegistrationDetailOut). */
export type PortalRegistrationDetail = PortalRegistrationDetailOut;
/** What the public and the /s/ self-initiate pages read of a portal (regPortalPublicOut). */
export type PublicPortal = RegPortalPublicOut;

const portalNames = { item: 'registration portal', plural: 'registration portals' };

/** /api/processes/{id}/registration-portals/: one process's portals (list, retrieve, create, patch, delete). */
export const processRegPortals = (processId: number | string) =>
  defineResource<RegPortal>(`/api/processes/${processId}/registration-portals/`, portalNames);

/** /api/segments/: the segments a portal is published in (the add and edit forms' choice). */
export const segmentChoices = defineResource<SegmentOut>('/api/segments/', {
  item: 'segment',
  plural: 'segments',
});

/** /api/portal-registrations/: every registration, newest first, with its events when retrieved. */
export const portalRegistrations = defineResource<PortalRegistration, PortalRegistrationDetail>(
  '/api/portal-registrations/',
  { item: 'registration', plural: 'registrations' },
);

/** POST /api/portal-registrations/{id}/resend-confirmation/: the confirmation email again. */
export function useResendConfirmation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      const r = await request<unknown>(
        'POST',
        `${portalRegistrations.path}${id}/resend-confirmation/`,
      );
      if (!r.ok) {
        notify.error('Error resending the confirmation email');
        throw new ApiFailure(r.status, r.data, null);
      }
      notify.success(REGISTRATION_MESSAGES.confirmationSent);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: portalRegistrations.key }),
  });
}

const seg = (v: number | string) => encodeURIComponent(String(v));

/** The public API path of a portal: /api/public/self-initiate/{segmentId}/{portalPath}/. */
export const publicPortalPath = (segmentId: string, portalPath: string) =>
  `/api/public/self-initiate/${seg(segmentId)}/${seg(portalPath)}/`;

/** The signed-in subject's API path: /api/s/self-initiate/{segmentId}/{portalPath}/. */
export const subjectPortalPath = (segmentId: string, portalPath: string) =>
  `/api/s/self-initiate/${seg(segmentId)}/${seg(portalPath)}/`;

/** What a page knows of a portal: loading, missing (404), failed, or read. */
export type PortalLoad =
  | { state: 'loading' }
  | { state: 'missing' }
  | { state: 'failed' }
  | { state: 'ready'; portal: PublicPortal };

/** GET a portal's public view (either audience's path). */
export async function loadPortal(path: string): Promise<PortalLoad> {
  const r = await request<PublicPortal>('GET', path);
  if (r.ok) return { state: 'ready', portal: r.data };
  return r.status === 404 ? { state: 'missing' } : { state: 'failed' };
}

/** POST a registration: the member of the public's details, or nothing for a signed-in subject. */
export function register(
  path: string,
  // The portal's ask modes decide which of email, dob and phone are sent (registrationRequest).
  body: Partial<RegistrationRequest> | Record<string, never>,
): Promise<ApiResult<RegistrationResultOut>> {
  return request<RegistrationResultOut>('POST', path, { body });
}

/** POST .../confirm/ {token, password}: confirms the email, sets the password, signs in. */
export function confirmRegistration(
  path: string,
  body: RegistrationConfirm,
): Promise<ApiResult<RegistrationResultOut>> {
  return request<RegistrationResultOut>('POST', `${path}confirm/`, { body });
}
