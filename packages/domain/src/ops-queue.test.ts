import { describe, expect, it } from 'vitest';
import {
  alreadyClaimedMessage,
  assignedToText,
  DEFAULT_OPS_TARGET_HOURS,
  isOpsAssigneeFilter,
  isPastOpsTarget,
  opsAgeBucket,
  opsTargetHours,
  weekStarts,
} from './ops-queue.js';

const now = new Date('2026-11-28T09:00:00Z');
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);

describe('ops queue', () => {
  it('gives each kind its target, the default for others', () => {
    expect(opsTargetHours('dbs-enhanced')).toBe(24);
    expect(opsTargetHours('knowledge-test')).toBe(72);
    expect(opsTargetHours('basic-details')).toBe(DEFAULT_OPS_TARGET_HOURS);
    expect(opsTargetHours('no-such-kind')).toBe(DEFAULT_OPS_TARGET_HOURS);
  });

  it('is past its target only beyond it', () => {
    expect(isPastOpsTarget('dbs-enhanced', hoursAgo(24), now)).toBe(false);
    expect(isPastOpsTarget('dbs-enhanced', hoursAgo(25), now)).toBe(true);
    expect(isPastOpsTarget('knowledge-test', hoursAgo(25), now)).toBe(false);
  });

  it('buckets ages, oldest first', () => {
    expect(opsAgeBucket(hoursAgo(2), now)).toBe('under-1-day');
    expect(opsAgeBucket(hoursAgo(24), now)).toBe('1-3-days');
    expect(opsAgeBucket(hoursAgo(72), now)).toBe('3-7-days');
    expect(opsAgeBucket(hoursAgo(24 * 30), now)).toBe('over-7-days');
    // a clock a little behind the row's time is still under a day
    expect(opsAgeBucket(hoursAgo(-1), now)).toBe('under-1-day');
  });

  it('knows the assignee filters', () => {
    expect(isOpsAssigneeFilter('me')).toBe(true);
    expect(isOpsAssigneeFilter('unassigned')).toBe(true);
    expect(isOpsAssigneeFilter('someone')).toBe(false);
  });

  it('names the holder', () => {
    expect(alreadyClaimedMessage('Olive Ops')).toBe('Already claimed by Olive Ops.');
    expect(assignedToText('Olive Ops')).toBe('Assigned to Olive Ops');
    expect(assignedToText(null)).toBe('Unassigned');
    expect(assignedToText('')).toBe('Unassigned');
  });

  it('lists the Mondays of the last weeks, oldest first', () => {
    const weeks = weekStarts(now, 12).map((d) => d.toISOString().slice(0, 10));
    expect(weeks).toHaveLength(12);
    expect(weeks.at(-1)).toBe('2026-11-23');
    expect(weeks[0]).toBe('2026-09-07');
    // on a Monday, that Monday
    expect(weekStarts(new Date('2026-11-23T00:00:00Z'), 1)[0]?.toISOString()).toBe(
      '2026-11-23T00:00:00.000Z',
    );
    // on a Sunday, the Monday before
    expect(weekStarts(new Date('2026-11-29T23:00:00Z'), 1)[0]?.toISOString()).toBe(
      '2026-11-23T00:00:00.000Z',
    );
  });
});
