import type { SubjectConsentOut } from '@kestrel/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notify } from '../lib/notify';
import { type ApiResult, request } from './client';
import { failureMessage } from './messages';
import { ApiFailure, defineResource } from './resource';
import { subjectCases } from './subject-cases';

/**
 * The consents the signed-in subject has given (contract: subjectConsentOut):
 * GET/POST /api/s/consents/, POST /api/s/consents/{id}/withdraw/, POST /api/s/dvla-reconsent/.
 */
export type SubjectConsent = SubjectConsentOut;

export const subjectConsents = defineResource<SubjectConsent>('/api/s/consents/', {
  item: 'consent',
  plural: 'consents',
});

export const SUBJECT_CONSENTS_PARAMS = { page_size: 100 } as const;

/** A consent can be withdrawn while it still counts. */
export const canWithdraw = (c: Pick<SubjectConsent, 'status'>) =>
  c.status === 'active' || c.status === 'expiring';

/**
 * The driving licence (DVLA) consents that are due for renewal: expiring soon or expired, and
 * not withdrawn. The dashboard prompts for these; /s/dvla-reconsent renews them.
 */
export const dvlaConsentsDue = (consents: readonly SubjectConsent[]) =>
  consents.filter(
    (c) => c.kind === 'driver-data' && (c.status === 'expiring' || c.status === 'expired'),
  );

function useSubjectAction<V>(
  call: (values: V) => Promise<ApiResult<unknown>>,
  success: string,
  errorName: string,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (values: V) => {
      const r = await call(values);
      if (!r.ok) {
        const message = failureMessage(r, {
          action: 'update',
          name: errorName,
          showBackendErrors: true,
        });
        if (message) notify.error(message);
        throw new ApiFailure(r.status, r.data, message);
      }
      notify.success(success);
      return r.data;
    },
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: subjectConsents.key }),
        client.invalidateQueries({ queryKey: subjectCases.key }),
      ]);
    },
  });
}

/** POST /api/s/consents/{id}/withdraw/: the affected check goes to the customer's attention. */
export function useWithdrawConsent() {
  return useSubjectAction<number>(
    (id) => request('POST', `/api/s/consents/${id}/withdraw/`, { body: {} }),
    'Consent withdrawn',
    'consent',
  );
}

/** POST /api/s/dvla-reconsent/ with the consent being renewed. */
export function useDvlaReconsent() {
  return useSubjectAction<number>(
    (consent) => request('POST', '/api/s/dvla-reconsent/', { body: { consent } }),
    'Consent renewed',
    'consent',
  );
}
