import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { firstIssueMessage, issuesByField } from './first-message.js';

describe('firstIssueMessage', () => {
  it('returns null on success and the first message on failure', () => {
    const s = z.string().min(2, 'short').regex(/x/, 'no x');
    expect(firstIssueMessage(s, 'xx')).toBeNull();
    expect(firstIssueMessage(s, 'a')).toBe('short');
  });

  it('groups issues by dotted path', () => {
    const s = z
      .object({ a: z.string('A bad'), b: z.object({ c: z.number('C bad') }) })
      .refine(() => false, 'whole');
    const r = s.safeParse({ a: 1, b: { c: 'x' } });
    expect(r.success).toBe(false);
    if (!r.success) expect(issuesByField(r.error)).toEqual({ a: ['A bad'], 'b.c': ['C bad'] });
    const r2 = s.safeParse({ a: 'x', b: { c: 1 } });
    if (!r2.success) expect(issuesByField(r2.error)).toEqual({ non_field_errors: ['whole'] });
    expect(r2.success).toBe(false);
  });
});
