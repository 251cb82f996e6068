import type { Address, AddressGap, OsAddress } from '@kestrel/domain';
import { type CaseDataAudience, caseDataBase, defineCaseList } from './case-data';
import { request } from './client';

export type CaseAddress = { [K in keyof Address]?: Address[K] | null } & {
  id: number;
  case: number;
  source: 'OS' | 'manual' | 'idsp';
};

/** The address history: the list of a case and the gaps of its 60-month window. */
export const caseAddresses = defineCaseList<CaseAddress, { gaps?: AddressGap[] }>(
  'case-addresses',
  'address',
);

/**
 * The fake postcode lookup (deterministic addresses for any well-formed postcode). Resolves to
 * the addresses found, or null when the lookup failed.
 */
export async function lookupPostcode(
  postcode: string,
  audience: CaseDataAudience,
): Promise<OsAddress[] | null> {
  const r = await request<{ results?: Array<OsAddress | { DPA?: OsAddress }> }>(
    'GET',
    `${caseDataBase(audience)}os-fake-lookup/`,
    { params: { postcode }, expect: 200 },
  );
  if (!r.ok || !Array.isArray(r.data?.results)) return null;
  return r.data.results.map((row) => ('DPA' in row && row.DPA ? row.DPA : (row as OsAddress)));
}
