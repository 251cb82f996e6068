import {
  type DriverDataResultData,
  type EndorsementRecord,
  withRemovalDates,
} from '@kestrel/domain';
import type { DvlaDriverRecord } from '../../../providers/dvla/provider.js';

/*
 * The DVLA's driver record as the driver data result (spec point 2): the endorsements get their
 * removal date by the domain's endorsement rules (point 9); CPCs and DQCs only when the activity
 * asked for them (include_cpc), tacho cards only when it asked for them (include_tacho).
 */

const day = (v: string | undefined): string | null => (v ? v.slice(0, 10) : null);

function joinAddress(a: DvlaDriverRecord['driver']['address']): string | null {
  const u = a?.unstructuredAddress;
  if (!u) return null;
  const parts = [u.line1, u.line2, u.line3, u.line4, u.line5, u.postcode].filter((p): p is string =>
    Boolean(p?.trim()),
  );
  return parts.length > 0 ? parts.join(', ') : null;
}

function disqualification(
  d: NonNullable<DvlaDriverRecord['endorsements']>[number]['disqualification'],
): string | null {
  if (!d) return null;
  const parts = [
    d.forYears ? `${d.forYears} year${d.forYears === 1 ? '' : 's'}` : '',
    d.forMonths ? `${d.forMonths} month${d.forMonths === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : (d.type ?? 'Disqualified');
}

export function endorsementsOf(record: DvlaDriverRecord): EndorsementRecord[] {
  return withRemovalDates(
    (record.endorsements ?? []).map((e) => ({
      offence_code: e.offenceCode,
      offence_date: day(e.offenceDate),
      conviction_date: day(e.convictionDate),
      penalty_points: e.penaltyPoints ?? null,
      disqualification: disqualification(e.disqualification),
    })),
  );
}

export function driverDataResult(
  record: DvlaDriverRecord,
  o: { includeCpc: boolean; includeTacho: boolean; mandateDate: string | null; checked: string },
): DriverDataResultData {
  const d = record.driver;
  return {
    enquiry_code: null,
    mandate_date: o.mandateDate,
    checked_date: o.checked,
    suppressed_since: null,
    include_cpc: o.includeCpc,
    include_tacho: o.includeTacho,
    driver: {
      first_names: d.firstNames ?? null,
      last_name: d.lastName ?? null,
      gender: d.gender ?? null,
      date_of_birth: day(d.dateOfBirth),
      address: joinAddress(d.address),
    },
    licence: {
      type: record.licence.type ?? null,
      status: record.licence.status ?? null,
      status_qualifier: record.licence.statusQualifier ?? null,
    },
    token: record.token
      ? {
          valid_from: day(record.token.validFromDate),
          valid_to: day(record.token.validToDate),
          issue_number: record.token.issueNumber ?? null,
        }
      : null,
    endorsements: endorsementsOf(record),
    entitlements: (record.entitlement ?? []).map((e) => ({
      category: e.categoryCode,
      type: e.categoryType ?? null,
      valid_from: day(e.fromDate),
      valid_to: day(e.expiryDate),
      restrictions: (e.restrictions ?? []).map((r) => ({
        code: r.restrictionCode,
        text: r.restrictionLiteral ?? null,
      })),
    })),
    tests: (record.testPass ?? []).map((t) => ({
      category: t.categoryCode,
      test_date: day(t.testDate),
      status: t.status ?? null,
    })),
    cpcs: o.includeCpc
      ? (record.cpc?.cpcs ?? []).map((c) => ({
          lgv_valid_to: day(c.lgvValidTo),
          pcv_valid_to: day(c.pcvValidTo),
        }))
      : null,
    dqcs: o.includeCpc
      ? (record.holder?.dqc?.dqcs ?? []).map((q) => ({
          card_number: q.dqcNumber ?? null,
          issue_date: day(q.issueDate),
          valid_to: day(q.validTo),
        }))
      : null,
    tacho_cards: o.includeTacho
      ? (record.tachoCards ?? []).map((t) => ({
          card_number: t.cardNumber ?? null,
          status: t.cardStatus ?? null,
          valid_from: day(t.cardStartOfValidityDate),
          valid_to: day(t.cardExpiryDate),
        }))
      : null,
  };
}
