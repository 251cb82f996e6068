import { describe, expect, it } from 'vitest';
import {
  formatLicenceNumber,
  grantEffect,
  isLicenceNumberFormat,
  isRenewableLicence,
  LICENCE_NUMBER_PATTERN,
  LICENCE_STATUS_LABELS,
  type LicenceStatus,
  licenceActionRefused,
  licenceActionsFor,
  licenceDurationText,
  licenceExpiryDate,
  licenceTransition,
} from './lms.js';

describe('licence transitions', () => {
  it('suspends, revokes, reinstates and surrenders from the allowed statuses', () => {
    expect(licenceTransition('active', 'suspend')).toBe('suspended');
    expect(licenceTransition('suspended', 'reinstate')).toBe('active');
    expect(licenceTransition('suspended', 'revoke')).toBe('revoked');
    expect(licenceTransition('active', 'surrender')).toBe('surrendered');
  });
  it('refuses the others', () => {
    expect(licenceTransition('active', 'reinstate')).toBeNull();
    expect(licenceTransition('suspended', 'suspend')).toBeNull();
    expect(licenceTransition('revoked', 'reinstate')).toBeNull();
    expect(licenceTransition('expired', 'suspend')).toBeNull();
    expect(licenceTransition('surrendered', 'revoke')).toBeNull();
  });
  it('lists the actions allowed', () => {
    expect(licenceActionsFor('active')).toEqual(['suspend', 'revoke', 'surrender']);
    expect(licenceActionsFor('suspended')).toEqual(['revoke', 'reinstate', 'surrender']);
    expect(licenceActionsFor('revoked')).toEqual([]);
  });
  it('words a refusal with the status and the action', () => {
    expect(licenceActionRefused('expired', 'suspend')).toBe(
      'An expired licence cannot be suspended.',
    );
    expect(licenceActionRefused('revoked', 'reinstate')).toBe(
      'A revoked licence cannot be reinstated.',
    );
    expect(LICENCE_STATUS_LABELS.surrendered).toBe('Surrendered');
  });
});

describe('licence numbers', () => {
  it('formats the council format with year, code and padded sequence', () => {
    expect(
      formatLicenceNumber('NGC/{CODE}/{YYYY}/{SEQ}', { year: 2026, code: 'hcd', sequence: 7 }),
    ).toBe('NGC/HCD/2026/00007');
    expect(formatLicenceNumber('PH-{SEQ:3}', { year: 2026, code: 'X', sequence: 12 })).toBe(
      'PH-012',
    );
  });
  it('accepts formats with one {SEQ} and allowed characters only', () => {
    expect(isLicenceNumberFormat('{CODE}/{YYYY}/{SEQ}')).toBe(true);
    expect(isLicenceNumberFormat('NGC-{SEQ:6}')).toBe(true);
    expect(isLicenceNumberFormat('NGC/{YYYY}')).toBe(false);
    expect(isLicenceNumberFormat('{SEQ}{SEQ}')).toBe(false);
    expect(isLicenceNumberFormat('ngc {SEQ}')).toBe(false);
  });
  it('checks typed numbers', () => {
    expect(LICENCE_NUMBER_PATTERN.test('NGC/HCD/2026/00001')).toBe(true);
    expect(LICENCE_NUMBER_PATTERN.test('A')).toBe(true);
    expect(LICENCE_NUMBER_PATTERN.test('NGC/')).toBe(false);
    expect(LICENCE_NUMBER_PATTERN.test('ngc 1')).toBe(false);
  });
});

describe('licence dates', () => {
  it('expires the day before the anniversary', () => {
    expect(licenceExpiryDate('2026-04-01', 3)).toBe('2029-03-31');
    expect(licenceExpiryDate('2026-01-01', 1)).toBe('2026-12-31');
    expect(licenceExpiryDate('2024-02-29', 1)).toBe('2025-02-28');
  });
  it('words a duration', () => {
    expect(licenceDurationText(1)).toBe('1 year');
    expect(licenceDurationText(3)).toBe('3 years');
  });
});

describe('the renewal rule', () => {
  const today = '2026-06-01';
  it('renews an active licence up to and on its last day', () => {
    expect(isRenewableLicence({ status: 'active', expiryDate: '2026-06-01' }, today)).toBe(true);
    expect(isRenewableLicence({ status: 'active', expiryDate: '2029-05-31' }, today)).toBe(true);
  });
  it('not an expired, suspended, revoked or surrendered one', () => {
    expect(isRenewableLicence({ status: 'active', expiryDate: '2026-05-31' }, today)).toBe(false);
    for (const status of ['suspended', 'revoked', 'surrendered', 'expired'] as const) {
      expect(isRenewableLicence({ status, expiryDate: '2027-01-01' }, today)).toBe(false);
    }
  });
});

describe('granting to a current holder', () => {
  const today = '2026-06-01';
  const lic = (id: number, status: LicenceStatus, expiryDate: string) => ({
    id,
    status,
    expiryDate,
  });
  it('issues a licence to someone holding none of the type, or only ended ones', () => {
    expect(grantEffect([], today)).toEqual({ effect: 'issue' });
    expect(
      grantEffect(
        [
          lic(1, 'active', '2026-05-31'),
          lic(2, 'revoked', '2028-01-01'),
          lic(3, 'surrendered', '2028-01-01'),
          lic(4, 'suspended', '2026-05-01'),
        ],
        today,
      ),
    ).toEqual({ effect: 'issue' });
  });
  it('extends the active one (the latest expiry of two) instead of a second licence', () => {
    expect(grantEffect([lic(1, 'active', '2027-01-01')], today)).toEqual({
      effect: 'extend',
      licence: lic(1, 'active', '2027-01-01'),
    });
    const two = grantEffect(
      [lic(1, 'active', '2027-01-01'), lic(2, 'active', '2028-01-01')],
      today,
    );
    expect(two).toMatchObject({ effect: 'extend', licence: { id: 2 } });
    const again = grantEffect(
      [lic(2, 'active', '2028-01-01'), lic(1, 'active', '2027-01-01')],
      today,
    );
    expect(again).toMatchObject({ effect: 'extend', licence: { id: 2 } });
  });
  it('stops at a suspended one, even beside an active one', () => {
    expect(
      grantEffect([lic(1, 'active', '2027-01-01'), lic(2, 'suspended', '2026-06-01')], today),
    ).toEqual({ effect: 'suspended', licence: lic(2, 'suspended', '2026-06-01') });
  });
});
