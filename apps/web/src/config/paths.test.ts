import { describe, expect, it } from 'vitest';
import { href, PATHS, safeNext } from './paths';

describe('href', () => {
  it('fills the parameters and adds the query', () => {
    expect(href('case-detail', { id: 4 })).toBe('/cases/4');
    expect(href('cases')).toBe('/cases');
    expect(href('login', {}, { next: '/cases?page=2' })).toBe('/login?next=%2Fcases%3Fpage%3D2');
    expect(href('ops:pricebook-edit', { id: 3, pbId: 'x' })).toBe(
      '/ops/customers/3/pricebooks/x/edit',
    );
  });

  it('does not compile with a misspelt name or a missing parameter', () => {
    // @ts-expect-error: no route is called 'casess'
    expect(() => href('casess')).toThrow();
    // @ts-expect-error: 'case-detail' needs its id
    expect(() => href('case-detail')).toThrow();
    // @ts-expect-error: 'ops:pricebook-edit' needs pbId as well
    expect(() => href('ops:pricebook-edit', { id: 3 })).toThrow();
  });

  it('has one pattern per name, every one a site path', () => {
    const patterns = Object.values(PATHS);
    expect(new Set(patterns).size).toBe(patterns.length);
    for (const p of patterns) expect(p.startsWith('/')).toBe(true);
  });
});

describe('safeNext', () => {
  it('follows only paths on this site', () => {
    expect(safeNext('/cases')).toBe('/cases');
    expect(safeNext('//evil.test')).toBe('/');
    expect(safeNext('https://evil.test', '/dashboard')).toBe('/dashboard');
  });
});
