import { describe, expect, it } from 'vitest';
import { BRAND_DETAILS, brandDetails, brandDetailsForHost, knownBrandForHost } from './brands.js';

describe('brands by host', () => {
  it('finds each brand by its hosts, in any case', () => {
    expect(brandDetailsForHost('127.0.0.1').name).toBe('Harrier Vetting');
    expect(brandDetailsForHost('APP.KESTRELCHECKS.CO.UK').id).toBe('kestrel');
    expect(knownBrandForHost('harrier.test')?.id).toBe('harrier');
  });

  it('unknown hosts: no known brand, and the first brand as the fallback', () => {
    expect(knownBrandForHost('evil.example')).toBeNull();
    expect(brandDetailsForHost('evil.example')).toBe(BRAND_DETAILS[0]);
  });

  it('one brand by id', () => {
    expect(brandDetails('harrier').contact.email).toBe('help@harriervetting.co.uk');
    expect(() => brandDetails('nope' as 'kestrel')).toThrow('No brand nope');
  });
});
