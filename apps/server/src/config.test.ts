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

describe('the simulated providers’ speed (CHECKS_SIMULATOR_DAY_SECONDS)', () => {
  it('makes a simulated day last 10 s on the embedded demo, a real day otherwise', () => {
    expect(readConfig({}, '/').checksSimulatorDaySeconds).toBe(10);
    // a PostgreSQL server: a production-like set-up keeps real timelines unless told
    const pg = readConfig({ DATABASE_URL: 'postgres://db/kestrel' }, '/');
    expect(pg.checksSimulatorDaySeconds).toBe(86_400);
    // the browser tests move the simulated clock themselves
    expect(readConfig({ CHECKS_SIMULATOR_CONTROL: '1' }, '/').checksSimulatorDaySeconds).toBe(
      86_400,
    );
    // tests building the app keep real timelines (they move their clocks)
    expect(defaultConfig.checksSimulatorDaySeconds).toBe(86_400);
  });

  it('takes a configured day length anywhere, and refuses a meaningless one', () => {
    expect(
      readConfig({ CHECKS_SIMULATOR_DAY_SECONDS: '86400' }, '/').checksSimulatorDaySeconds,
    ).toBe(86_400);
    const fast = { CHECKS_SIMULATOR_DAY_SECONDS: '2.5', DATABASE_URL: 'postgres://db/k' };
    expect(readConfig(fast, '/').checksSimulatorDaySeconds).toBe(2.5);
    for (const bad of ['0', '-1', 'fast']) {
      expect(() => readConfig({ CHECKS_SIMULATOR_DAY_SECONDS: bad }, '/')).toThrow(
        'CHECKS_SIMULATOR_DAY_SECONDS must be a number of seconds above 0',
      );
    }
  });
});

describe('the job workers’ polling interval (JOB_POLLING_SECONDS)', () => {
  it('looks every 2 s unless told, and refuses an interval pg-boss cannot keep', () => {
    expect(readConfig({}, '/').jobPollingSeconds).toBe(2);
    expect(readConfig({ JOB_POLLING_SECONDS: '' }, '/').jobPollingSeconds).toBe(2);
    expect(readConfig({ JOB_POLLING_SECONDS: '10' }, '/').jobPollingSeconds).toBe(10);
    expect(readConfig({ JOB_POLLING_SECONDS: '0.5' }, '/').jobPollingSeconds).toBe(0.5);
    for (const bad of ['0', '0.2', '-3', 'often']) {
      expect(() => readConfig({ JOB_POLLING_SECONDS: bad }, '/')).toThrow(
        'JOB_POLLING_SECONDS must be a number of seconds, at least 0.5',
      );
    }
  });
});
