import { describe, expect, it } from 'vitest';
import {
  erasureDecision,
  erasureListFilters,
  erasureRequestCreate,
  recordViewOut,
  subjectErasureRequestCreate,
} from '../index.js';

describe('the data-request contracts (issue 34)', () => {
  it('take a reason, trimmed, empty by default, at most 1000 characters', () => {
    expect(erasureRequestCreate.parse({ subject: 4 })).toEqual({ subject: 4, reason: '' });
    expect(subjectErasureRequestCreate.parse({ reason: '  moving on ' })).toEqual({
      reason: 'moving on',
    });
    expect(subjectErasureRequestCreate.safeParse({ reason: 'x'.repeat(1001) }).success).toBe(false);
    expect(erasureRequestCreate.safeParse({ subject: 0 }).success).toBe(false);
    expect(erasureRequestCreate.safeParse({ subject: 4, extra: 1 }).success).toBe(false);
  });

  it('decide by approving or refusing only; list filters read from the query string', () => {
    expect(erasureDecision.parse({ decision: 'refuse', reason: 'Under review' })).toEqual({
      decision: 'refuse',
      reason: 'Under review',
    });
    expect(erasureDecision.safeParse({ decision: 'maybe' }).success).toBe(false);
    expect(erasureListFilters.parse({ state: 'pending', subject: '12' })).toEqual({
      state: 'pending',
      subject: 12,
    });
    expect(erasureListFilters.safeParse({ state: 'done' }).success).toBe(false);
  });

  it('record a view as a page, a download or an export', () => {
    const row = {
      id: 1,
      customer: 2,
      case: 3,
      item_kind: 'criminal_record',
      item_id: 4,
      item_label: 'Basic DBS',
      how: 'export',
      actor_type: 'ProductUser',
      actor: 5,
      actor_name: 'Ann Lee',
      actor_is_ops: false,
      count: 1,
      first_seen_at: '2026-11-29T12:00:00.000Z',
      last_seen_at: '2026-11-29T12:00:00.000Z',
      ip: null,
      user_agent: '',
    };
    expect(recordViewOut.parse(row)).toEqual(row);
    expect(recordViewOut.safeParse({ ...row, how: 'print' }).success).toBe(false);
  });
});
