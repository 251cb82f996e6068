import { ProviderError } from '../dbs-basic/provider.js';
import type { StatusCheckAnswer, StatusCheckQuery, UpdateServiceProvider } from './provider.js';

/*
 * The real Multiple Status Check Facility: `GET {base}/crsc/api/status/{disclosureRef}` with
 * dateOfBirth (DD/MM/YYYY), surname, hasAgreedTermsAndConditions=true, organisationName,
 * employeeSurname and employeeForename; the answer is XML (`statusCheckResult`).
 */

/** The text of `<tag>…</tag>` in `xml`, or null. */
export function xmlText(xml: string, tag: string): string | null {
  const m = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml);
  return m?.[1]?.trim() || null;
}

export function parseStatusCheck(xml: string): StatusCheckAnswer {
  const status = xmlText(xml, 'status');
  const type = xmlText(xml, 'statusCheckResultType');
  if (!status || !type) throw new ProviderError('The update service answered malformed XML.', true);
  return {
    result_type: type,
    status,
    forename: xmlText(xml, 'forename'),
    surname: xmlText(xml, 'surname'),
    print_date: xmlText(xml, 'printDate'),
  };
}

export function createUpdateServiceClient(o: {
  baseUrl: string;
  fetch?: typeof fetch;
}): UpdateServiceProvider {
  const doFetch = o.fetch ?? fetch;
  return {
    async statusCheck(q: StatusCheckQuery, signal: AbortSignal) {
      const [y, m, d] = q.dob.split('-');
      const params = new URLSearchParams({
        dateOfBirth: `${d}/${m}/${y}`,
        surname: q.surname,
        hasAgreedTermsAndConditions: 'true',
        organisationName: q.organisation_name,
        employeeSurname: q.employee_surname,
        employeeForename: q.employee_forename,
      });
      const url = `${o.baseUrl.replace(/\/$/, '')}/crsc/api/status/${encodeURIComponent(q.certificate_number)}?${params}`;
      let res: Response;
      try {
        res = await doFetch(url, { signal, headers: { accept: 'application/xml' } });
      } catch {
        throw new ProviderError(
          signal.aborted ? 'The provider did not answer in time.' : 'The provider is unreachable.',
          true,
        );
      }
      if (!res.ok) {
        throw new ProviderError(
          `The update service answered ${res.status}.`,
          res.status >= 500,
          res.status,
        );
      }
      return parseStatusCheck(await res.text());
    },
  };
}
