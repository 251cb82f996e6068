import { describe, expect, it } from 'vitest';
import { portalProgressPatch } from './portal.js';

describe('portal progress patch', () => {
  it('takes a section, or a section with its step', () => {
    expect(portalProgressPatch.parse({ portal_last_completed_section: 'welcome' })).toEqual({
      portal_last_completed_section: 'welcome',
    });
    expect(
      portalProgressPatch.safeParse({ portal_last_completed_section: 'address-history/2' }).success,
    ).toBe(true);
  });

  it('refuses a section the portal does not have', () => {
    const r = portalProgressPatch.safeParse({ portal_last_completed_section: 'payments' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('Unknown portal section');
  });
});
