import { describe, expect, it } from 'vitest';
import { defaultConfig, readConfig, readIdvConfig } from '../../config.js';
import { ManualClock } from '../../platform/clock.js';
import { IdvApiClient } from './client.js';
import { createIdvProvider } from './select.js';
import { IdvSimulator } from './simulator.js';

const SIMULATOR_SECRET = 'the installation secret';

describe('the identity provider configuration', () => {
  it('defaults to the simulator', () => {
    expect(readIdvConfig({})).toEqual({
      provider: 'simulator',
      apiUrl: null,
      apiKey: null,
      callbackSecret: null,
    });
    expect(readConfig({}, '/srv').idv).toEqual(defaultConfig.idv);
    expect(
      createIdvProvider(defaultConfig.idv, 'http://k.test', new ManualClock(), SIMULATOR_SECRET),
    ).toBeInstanceOf(IdvSimulator);
  });

  it('api needs its URL, key and callback secret, else the start stops', () => {
    expect(() =>
      readIdvConfig({ IDV_PROVIDER: 'api', IDV_API_URL: 'https://idv.example' }),
    ).toThrow('IDV_PROVIDER=api needs IDV_API_KEY, IDV_CALLBACK_SECRET');
    expect(() => readIdvConfig({ IDV_PROVIDER: 'other' })).toThrow(
      'IDV_PROVIDER must be simulator or api',
    );
    const config = readIdvConfig({
      IDV_PROVIDER: 'api',
      IDV_API_URL: 'https://idv.example',
      IDV_API_KEY: 'key',
      IDV_CALLBACK_SECRET: 'secret',
    });
    expect(config).toEqual({
      provider: 'api',
      apiUrl: 'https://idv.example',
      apiKey: 'key',
      callbackSecret: 'secret',
    });
    expect(
      createIdvProvider(config, 'http://k.test', new ManualClock(), SIMULATOR_SECRET),
    ).toBeInstanceOf(IdvApiClient);
    expect(() =>
      createIdvProvider(
        { ...config, apiKey: null },
        'http://k.test',
        new ManualClock(),
        SIMULATOR_SECRET,
      ),
    ).toThrow(/needs/);
  });
});
