import { aborted, ProviderError } from '../errors.js';
import type { HomeOfficeRtwProvider, RtwShareCodeAnswer, RtwStatus } from './provider.js';

// The real client (HOME_OFFICE_RTW_URL and HOME_OFFICE_RTW_KEY set). The Home Office offers the
// employer check as a service of its own; the paths and field names below follow its public
// "view a job applicant's right to work details" data (share code + date of birth -> profile)
// but are UNCONFIRMED, kept in this one file so that the service's shapes replace them without
// touching the kind:
//   POST {URL}/v1/right-to-work/checks   X-API-Key: KEY, Idempotency-Key: <activity's key>
//        {shareCode, dateOfBirth, companyName}
//   200 {checkReference, outcome: FOUND | NOT_FOUND, profile?: {givenNames, familyName,
//        nationality, dateOfBirth, photo (base64 JPEG), status: PERMANENT | TIME_LIMITED |
//        NO_RIGHT_TO_WORK, statusText, conditions: string[], expiryDate?}}
//   400 a malformed request, 401/403 the key, 429 too many, 5xx an outage.

const STATUS: Record<string, RtwStatus> = {
  PERMANENT: 'permanent',
  TIME_LIMITED: 'time-limited',
  NO_RIGHT_TO_WORK: 'no-right',
};

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function createHomeOfficeRtwClient(opts: {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
}): HomeOfficeRtwProvider {
  const doFetch = opts.fetch ?? fetch;
  const base = opts.baseUrl.replace(/\/$/, '');
  return {
    async checkShareCode(q, signal) {
      let res: Response;
      try {
        res = await Promise.race([
          doFetch(`${base}/v1/right-to-work/checks`, {
            method: 'POST',
            headers: {
              'x-api-key': opts.apiKey,
              'content-type': 'application/json',
              accept: 'application/json',
            },
            body: JSON.stringify({
              shareCode: q.share_code,
              dateOfBirth: q.date_of_birth,
              companyName: q.company_name,
            }),
            signal,
          }),
          aborted(signal),
        ]);
      } catch (err) {
        if (err instanceof ProviderError) throw err;
        throw new ProviderError(`The Home Office check failed: ${String(err)}`, true);
      }
      if (!res.ok) {
        const retryable = res.status >= 500 || res.status === 429;
        throw new ProviderError(`The Home Office answered ${res.status}.`, retryable, res.status);
      }
      const data: unknown = await res.json().catch(() => null);
      const get = (o: unknown, k: string): unknown =>
        typeof o === 'object' && o !== null ? Reflect.get(o, k) : undefined;
      const reference = str(get(data, 'checkReference'));
      const outcome = get(data, 'outcome');
      if (!reference || (outcome !== 'FOUND' && outcome !== 'NOT_FOUND')) {
        throw new ProviderError('The Home Office answered something unexpected.', false);
      }
      if (outcome === 'NOT_FOUND') {
        return notFound(reference);
      }
      const p = get(data, 'profile');
      const status = STATUS[String(get(p, 'status'))];
      if (!status) throw new ProviderError('The Home Office gave an unknown status.', false);
      const photo = str(get(p, 'photo'));
      const conditions = get(p, 'conditions');
      return {
        status,
        check_reference: reference,
        forename: str(get(p, 'givenNames')),
        surname: str(get(p, 'familyName')),
        nationality: str(get(p, 'nationality')),
        date_of_birth: str(get(p, 'dateOfBirth')),
        photo: photo ? `data:image/jpeg;base64,${photo}` : null,
        status_text: str(get(p, 'statusText')) ?? '',
        conditions: Array.isArray(conditions)
          ? conditions.filter((c): c is string => typeof c === 'string')
          : [],
        expiry_date: str(get(p, 'expiryDate')),
      } satisfies RtwShareCodeAnswer;
    },
  };
}

/** No profile for this share code and date of birth (wrong, expired or never made). */
export function notFound(reference: string): RtwShareCodeAnswer {
  return {
    status: 'not-found',
    check_reference: reference,
    forename: null,
    surname: null,
    nationality: null,
    date_of_birth: null,
    photo: null,
    status_text: 'No details were found for this share code and date of birth.',
    conditions: [],
    expiry_date: null,
  };
}
