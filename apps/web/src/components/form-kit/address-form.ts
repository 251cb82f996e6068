import { caseAddressIn, isoDate } from '@kestrel/domain';
import type { CaseAddress } from '../../api/case-addresses';
import { text } from './schema-form';

/**
 * The address form both address editors share (the workspace's address history and the subject
 * portal's section): its values, its start from a row, its schema and its one-line summary.
 */
export interface AddressForm {
  country: string;
  country_dbs: string;
  line_one: string;
  line_one_dbs: string;
  line_two: string;
  line_two_dbs: string;
  town: string;
  town_dbs: string;
  postcode: string;
  from_date: string;
  to_date: string;
  current: boolean;
  source: string;
  metadata: Record<string, unknown> | null;
}

export const addressToForm = (r: Partial<CaseAddress> | null): AddressForm => ({
  country: text(r?.country) || 'GBR',
  country_dbs: text(r?.country_dbs),
  line_one: text(r?.line_one),
  line_one_dbs: text(r?.line_one_dbs),
  line_two: text(r?.line_two),
  line_two_dbs: text(r?.line_two_dbs),
  town: text(r?.town),
  town_dbs: text(r?.town_dbs),
  postcode: text(r?.postcode),
  from_date: text(r?.from_date),
  to_date: text(r?.to_date),
  current: r?.current ?? false,
  source: r?.source ?? 'manual',
  metadata: r?.metadata ?? null,
});

/** Today, as the address rules read it (no future dates). */
export const addressToday = () => isoDate(new Date());
export const addressSchema = () => caseAddressIn(addressToday());
export const addressLine = (a: CaseAddress) =>
  [a.line_one, a.line_two, a.town, a.postcode].filter(Boolean).join(', ');
