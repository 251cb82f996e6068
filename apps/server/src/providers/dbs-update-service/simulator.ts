import { aborted, ProviderError } from '../dbs-basic/provider.js';
import type { StatusCheckAnswer, StatusCheckQuery, UpdateServiceProvider } from './provider.js';

/*
 * A deterministic update service (the default), after the public test double: the certificate
 * number's first digit decides (README.md): 1 no match, 2 blank, 3 non-blank, 4 new info,
 * 5 a status it does not document, 6 no answer (a timeout), 8 a server error the first time it
 * is asked about that certificate then blank, 9 server error, others 400.
 */

const STATUS_BY_DIGIT: Record<string, string> = {
  '1': 'NO_MATCH_FOUND',
  '2': 'BLANK_NO_NEW_INFO',
  '3': 'NON_BLANK_NO_NEW_INFO',
  '4': 'NEW_INFO',
  '5': 'UNDER_REVIEW',
};

/** Print date of a simulated certificate: fixed, so answers are reproducible. */
export const SIMULATED_PRINT_DATE = '2025-06-02';

export function createUpdateServiceSimulator(): UpdateServiceProvider {
  const failedOnce = new Set<string>();
  return {
    async statusCheck(q: StatusCheckQuery, signal: AbortSignal): Promise<StatusCheckAnswer> {
      const first = q.certificate_number.charAt(0);
      if (first === '6') return aborted(signal);
      if (first === '9') throw new ProviderError('The update service answered 500.', true, 500);
      if (first === '8' && !failedOnce.has(q.certificate_number)) {
        failedOnce.add(q.certificate_number);
        throw new ProviderError('The update service answered 503.', true, 503);
      }
      const status = first === '8' ? 'BLANK_NO_NEW_INFO' : STATUS_BY_DIGIT[first];
      if (!status || !/^\d{12}$/.test(q.certificate_number)) {
        throw new ProviderError('The update service answered 400.', false, 400);
      }
      const match = status !== 'NO_MATCH_FOUND';
      return {
        result_type: 'SUCCESS',
        status,
        forename: match ? 'SIMULATED' : null,
        surname: match ? q.surname.toUpperCase() : null,
        print_date: match ? SIMULATED_PRINT_DATE : null,
      };
    },
  };
}
