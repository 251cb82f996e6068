import { describe, expect, it } from 'vitest';
import { defaultConfig, readConfig } from './config.js';

describe('the configuration', () => {
  it('reads the sign-in limit per address; the per-account limits are not configurable', () => {
    expect(readConfig({}, '/').rateLimits).toEqual(defaultConfig.rateLimits);
    const raised = readConfig({ LOGIN_LIMIT_PER_ADDRESS: '500' }, '/').rateLimits;
    expect(raised).toEqual({ ...defaultConfig.rateLimits, perAddress: 500 });
    expect(readConfig({ LOGIN_LIMIT_PER_ADDRESS: 'lots' }, '/').rateLimits.perAddress).toBe(50);
  });
});
