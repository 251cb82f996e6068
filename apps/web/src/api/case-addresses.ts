import {
  type AddressGapOut,
  type AddressLookupSourceOut,
  type CaseAddressOut,
  OS_PLACES_POSTCODE_URL,
  type OsAddress,
  type OsDatahubTokenOut,
  type OsPlacesOut,
} from '@kestrel/domain';
import { type CaseDataAudience, caseDataBase, defineCaseList } from './case-data';
import { type ApiErrorBody, request } from './client';

export type CaseAddress = CaseAddressOut;

/** The address history: the list of a case and the gaps of its 60-month window. */
export const caseAddresses = defineCaseList<CaseAddress, { gaps?: AddressGapOut[] }>(
  'case-addresses',
  'address',
);

export type LookupResult = { ok: true; addresses: OsAddress[] } | { ok: false; body: ApiErrorBody };

let liveToken: { token: string; until: number } | null = null;

/**
 * Which lookup this caller uses, asked at each lookup (it follows the server's keys and the
 * customer's demo mode, which a later session on this page may not share); null when it failed.
 */
async function lookupSource(
  audience: CaseDataAudience,
): Promise<AddressLookupSourceOut['source'] | null> {
  const r = await request<AddressLookupSourceOut>(
    'GET',
    `${caseDataBase(audience)}case-addresses/lookup-source/`,
    { expect: 200 },
  );
  return r.ok ? r.data.source : null;
}

/**
 * The OS Data Hub token for the live search, kept until shortly before it expires; without live
 * keys (or for a demo-mode customer) the server says 'fake' and no token is asked for.
 */
async function datahubToken(
  audience: CaseDataAudience,
): Promise<{ token: string } | { fake: true } | { failed: true }> {
  const source = await lookupSource(audience);
  if (source === null) return { failed: true };
  if (source === 'fake') return { fake: true };
  if (liveToken && liveToken.until > Date.now()) return { token: liveToken.token };
  const r = await request<OsDatahubTokenOut>(
    'POST',
    `${caseDataBase(audience)}case-addresses/os-datahub-token/`,
    { body: {}, expect: 200 },
  );
  // 404 (503 before): no live search configured, or a demo-mode customer: the fake lookup answers.
  if (!r.ok) return r.status === 404 || r.status === 503 ? { fake: true } : { failed: true };
  liveToken = {
    token: r.data.access_token,
    until: Date.now() + Math.max(0, r.data.expires_in - 30) * 1000,
  };
  return { token: liveToken.token };
}

const dpaOf = (data: OsPlacesOut | null | undefined): OsAddress[] =>
  Array.isArray(data?.results) ? data.results.map((row) => row.DPA) : [];

/**
 * The postcode lookup: the live OS Places search when the server gives a token (OS Data Hub
 * configured, not a demo-mode customer), otherwise the fake lookup (deterministic addresses for
 * any well-formed postcode). Both answer in OS Places' shape: `results[].DPA`.
 */
export async function lookupPostcode(
  postcode: string,
  audience: CaseDataAudience,
): Promise<LookupResult> {
  const live = await datahubToken(audience);
  if ('failed' in live) return { ok: false, body: {} };
  if ('token' in live) {
    try {
      const url = `${OS_PLACES_POSTCODE_URL}?${new URLSearchParams({ postcode })}`;
      const res = await fetch(url, { headers: { Authorization: `Bearer ${live.token}` } });
      // No address for the postcode answers 400 there: none found.
      if (res.status === 400) return { ok: true, addresses: [] };
      if (!res.ok) return { ok: false, body: {} };
      return { ok: true, addresses: dpaOf((await res.json()) as OsPlacesOut) };
    } catch {
      return { ok: false, body: {} };
    }
  }
  const r = await request<OsPlacesOut>(
    'GET',
    `${caseDataBase(audience)}case-addresses/os-fake-lookup/`,
    { params: { postcode }, expect: 200 },
  );
  if (!r.ok) return { ok: false, body: r.data };
  return { ok: true, addresses: dpaOf(r.data) };
}

/** For tests: forget the cached live-search token. */
export function forgetAddressLookup(): void {
  liveToken = null;
}
