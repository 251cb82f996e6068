import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { caseListFilters, resourceListFilters } from './list-queries.js';

describe('the lists’ query-string filters', () => {
  it('declare a filter per name, each text or a repeated key, optional', () => {
    const shape = resourceListFilters(['verb', 'actor']);
    expect(Object.keys(shape)).toEqual(['verb', 'actor']);
    const q = z.object(shape);
    expect(q.parse({})).toEqual({});
    expect(q.parse({ verb: 'created', actor: ['1', '2'] })).toEqual({
      verb: 'created',
      actor: ['1', '2'],
    });
    expect(q.safeParse({ verb: 'x'.repeat(2001) }).success).toBe(false);
    expect(q.safeParse({ verb: 3 }).success).toBe(false);
  });

  it('describe what each case list filter takes', () => {
    expect(caseListFilters.created_before.description).toMatch(/YYYY-MM-DD/);
    expect(z.object(caseListFilters).parse({ state: ['pending', 'complete'] })).toEqual({
      state: ['pending', 'complete'],
    });
  });
});
