import { describe, expect, it } from 'vitest';
import { buildQuery } from './query-string';

describe('buildQuery', () => {
  it('keeps commas literal', () => {
    expect(buildQuery({ fields: 'a,b', ids: [1, 2, 3] })).toBe('?fields=a,b&ids=1,2,3');
  });
  it('sends null values as bare keys and leaves undefined out', () => {
    expect(buildQuery({ archived: null, page: 2, search: undefined })).toBe('?archived&page=2');
  });
  it('encodes everything else', () => {
    expect(buildQuery({ search: 'o’brien & co', next: '/cases?x=1' })).toBe(
      '?search=o%E2%80%99brien%20%26%20co&next=%2Fcases%3Fx%3D1',
    );
  });
  it('gives an empty string for no params', () => {
    expect(buildQuery()).toBe('');
    expect(buildQuery({ a: undefined })).toBe('');
  });
});
