import { describe, expect, it } from 'vitest';
import { continueTo, NEXT_KEY, portalTexts, readLink, sitePath } from './continue-link';

function memoryStore(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, v),
  };
}

describe('the payment portal link', () => {
  it('accepts only a path of this site', () => {
    expect(sitePath('/s/dashboard')).toBe('/s/dashboard');
    expect(sitePath('/s/self-initiate/4/a?x=1')).toBe('/s/self-initiate/4/a?x=1');
    for (const bad of [
      '//evil.test',
      '/\\evil.test',
      'https://evil.test',
      'javascript:x',
      '/a b',
      '',
      null,
    ])
      expect(sitePath(bad)).toBeNull();
    expect(sitePath(`/${'a'.repeat(600)}`)).toBeNull();
  });

  it('keeps next and for per payment, and reads them back on the bare address', () => {
    const store = memoryStore();
    expect(readLink('?next=%2Fs%2Fdashboard&for=licence', 'pit_1', store)).toEqual({
      next: '/s/dashboard',
      licence: true,
    });
    expect(readLink('', 'pit_1', store)).toEqual({ next: '/s/dashboard', licence: true });
    expect(readLink('', 'pit_2', store)).toEqual({ next: null, licence: false });
    store.setItem(NEXT_KEY('pit_3'), '{not json');
    expect(readLink('', 'pit_3', store)).toEqual({ next: null, licence: false });
    store.setItem(NEXT_KEY('pit_4'), JSON.stringify({ next: '//evil', licence: 'yes' }));
    expect(readLink('', 'pit_4', store)).toEqual({ next: null, licence: false });
    expect(readLink('?next=%2Fx', 'pit_5', null)).toEqual({ next: '/x', licence: false });
  });

  it('continues to next, else a signed-in subject’s dashboard, else nowhere', () => {
    expect(continueTo({ next: '/x', licence: false }, false)).toBe('/x');
    expect(continueTo({ next: null, licence: false }, true)).toBe('/s/dashboard');
    expect(continueTo({ next: null, licence: false }, false)).toBeNull();
  });

  it('words a licence fee as the licence application', () => {
    expect(portalTexts(true).title).toBe('Pay your licence fee');
    expect(portalTexts(true).paidBody).toContain('licence application');
    expect(portalTexts(false).title).toBe('Pay for your check');
  });
});
