import { describe, expect, it } from 'vitest';
import {
  type HeldLicence,
  isCurrentLicence,
  licenceEndedOn,
  taxCheckedOnApply,
  taxCheckNeedOf,
  taxCheckReason,
} from './lms-tax-check.js';

const today = '2026-11-29';
const lic = (over: Partial<HeldLicence>): HeldLicence => ({
  sameType: true,
  here: true,
  status: 'active',
  expiryDate: '2027-06-30',
  statusChangedOn: null,
  ...over,
});
const facts = (held: HeldLicence[], more: { renewal?: boolean; declared?: boolean } = {}) => ({
  renewal: more.renewal ?? false,
  declaredElsewhere: more.declared ?? false,
  held,
  today,
});

describe('the HMRC tax check rule', () => {
  it('a renewal always needs the code, checked on applying', () => {
    expect(taxCheckReason(facts([], { renewal: true }))).toBe('renewal');
    expect(taxCheckNeedOf(facts([], { renewal: true }))).toBe('code');
    expect(taxCheckedOnApply('renewal')).toBe(true);
  });

  it('an existing holder of the same type here needs the code on a new portal too, checked on applying', () => {
    expect(taxCheckReason(facts([lic({})]))).toBe('holds_here');
    expect(taxCheckReason(facts([lic({ status: 'suspended' })]))).toBe('holds_here');
    // valid through its expiry day
    expect(taxCheckReason(facts([lic({ expiryDate: today })]))).toBe('holds_here');
    expect(taxCheckedOnApply('holds_here')).toBe(true);
  });

  it('a licence of the same type held with another authority, declared or on record, needs the code', () => {
    expect(taxCheckReason(facts([lic({ here: false })]))).toBe('holds_elsewhere');
    expect(taxCheckReason(facts([], { declared: true }))).toBe('holds_elsewhere');
    expect(taxCheckedOnApply('holds_elsewhere')).toBe(false);
  });

  it('a licence that expired or ceased less than a year ago needs the code; a year or more ago does not', () => {
    expect(taxCheckReason(facts([lic({ status: 'expired', expiryDate: '2026-01-10' })]))).toBe(
      'ceased_within_year',
    );
    // past its expiry but not yet marked expired by the daily job
    expect(taxCheckReason(facts([lic({ expiryDate: '2026-11-28' })]))).toBe('ceased_within_year');
    expect(taxCheckReason(facts([lic({ status: 'expired', expiryDate: '2025-11-29' })]))).toBe(
      'ceased_within_year',
    );
    expect(taxCheckReason(facts([lic({ status: 'expired', expiryDate: '2025-11-28' })]))).toBe(
      null,
    );
    // revoked or surrendered: from the day it ended, at this council or another
    const revoked = lic({
      status: 'revoked',
      expiryDate: '2028-01-01',
      statusChangedOn: '2026-03-01',
    });
    expect(taxCheckReason(facts([revoked]))).toBe('ceased_within_year');
    expect(
      taxCheckReason(facts([lic({ ...revoked, here: false, statusChangedOn: '2025-03-01' })])),
    ).toBe(null);
    expect(taxCheckedOnApply('ceased_within_year')).toBe(false);
  });

  it('first-time applicants, or holders of another type only, confirm their responsibilities', () => {
    expect(taxCheckReason(facts([]))).toBe(null);
    expect(taxCheckNeedOf(facts([]))).toBe('confirm');
    expect(
      taxCheckReason(facts([lic({ sameType: false }), lic({ sameType: false, here: false })])),
    ).toBe(null);
    expect(taxCheckedOnApply(null)).toBe(false);
  });

  it('when a licence ended and whether it is current', () => {
    expect(licenceEndedOn(lic({ status: 'surrendered', statusChangedOn: '2026-02-02' }))).toBe(
      '2026-02-02',
    );
    // a revocation recorded after the expiry ends it at its expiry
    expect(
      licenceEndedOn(
        lic({ status: 'revoked', expiryDate: '2026-01-01', statusChangedOn: '2026-02-02' }),
      ),
    ).toBe('2026-01-01');
    expect(licenceEndedOn(lic({ status: 'revoked' }))).toBe('2027-06-30');
    expect(isCurrentLicence(lic({ status: 'revoked' }), today)).toBe(false);
    expect(isCurrentLicence(lic({ expiryDate: '2026-11-28' }), today)).toBe(false);
  });
});
