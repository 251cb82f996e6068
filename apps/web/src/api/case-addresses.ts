import type { AddressGapOut, CaseAddressOut, OsAddress, OsPlacesOut } from '@kestrel/domain';
import { type CaseDataAudience, caseDataBase, defineCaseList } from './case-data';
import { type ApiErrorBody, request } from './client';

export type CaseAddress = CaseAddressOut;

/** The address history: the list of a case and the gaps of its 60-month window. */
export const caseAddresses = defineCaseList<CaseAddress, { gaps?: AddressGapOut[] }>(
  'case-addresses',
  'address',
);

export type LookupResult = { ok: true; addresses: OsAddress[] } | { ok: false; body: ApiErrorBody };

/**
 * The postcode lookup (the fake one by default: deterministic addresses for any well-formed
 * postcode), answered in OS Places' shape: `results[].DPA`.
 */
export async function lookupPostcode(
  postcode: string,
  audience: CaseDataAudience,
): Promise<LookupResult> {
  const r = await request<OsPlacesOut>(
    'GET',
    `${caseDataBase(audience)}case-addresses/os-fake-lookup/`,
    { params: { postcode }, expect: 200 },
  );
  if (!r.ok) return { ok: false, body: r.data };
  const results = Array.isArray(r.data?.results) ? r.data.results : [];
  return { ok: true, addresses: results.map((row) => row.DPA) };
}
