import { describe, expect, it } from 'vitest';
import { BRANDS, brandForHost } from './brands';

describe('brands', () => {
  it('gives localhost and 127.0.0.1 different brands', () => {
    expect(brandForHost('localhost').id).not.toBe(brandForHost('127.0.0.1').id);
  });
  it('falls back to the first brand for unknown hosts', () => {
    expect(brandForHost('example.org')).toBe(BRANDS[0]);
  });
  it('gives each brand a name, contact details, a ten-shade colour and a payment key', () => {
    for (const b of BRANDS) {
      expect(b.name).toBeTruthy();
      expect(b.contact.email).toMatch(/@/);
      expect(b.contact.phone).toBeTruthy();
      expect(b.palette).toHaveLength(10);
      expect(b.paymentKey).toMatch(/^pk_/);
    }
  });
  it("uses the domain's colour (the one branded emails use) as the buttons' shade", () => {
    for (const b of BRANDS) expect(b.palette[7]).toBe(b.colour);
  });
});
