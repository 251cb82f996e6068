import { describe, expect, it } from 'vitest';
import { isOnlineIdentityVerified, type OnlineIdvData } from './online-idv.js';

describe('isOnlineIdentityVerified', () => {
  const met = { schemes: [{ name: 'rtw', requirements_met: false }, { requirements_met: true }] };
  const unmet = { schemes: [{ name: 'rtw', requirements_met: false }] };
  it.each<[string, OnlineIdvData | null, boolean]>([
    ['bank verified', { ibv_verified: true }, true],
    ['a scheme met', { ibv_verified: false, id_profile: met }, true],
    ['no scheme met', { ibv_verified: false, id_profile: unmet }, false],
    ['no profile', { ibv_verified: null, id_profile: null }, false],
    ['schemes missing', { id_profile: { schemes: null } }, false],
    [
      'manual approval overrides bank flag',
      { ibv_verified: true, manual_idv_approved: true },
      false,
    ],
    ['manual approval overrides schemes', { id_profile: met, manual_idv_approved: true }, false],
    ['no data', null, false],
  ])('%s', (_name, data, expected) => {
    expect(isOnlineIdentityVerified(data)).toBe(expected);
  });
});
