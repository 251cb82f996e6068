import { describe, expect, it } from 'vitest';
import {
  canEditProcessRequirements,
  canSeeNotes,
  isLockedRecord,
  needsProfileCompletion,
} from './access-rules.js';

describe('access rules', () => {
  it.each([
    [true, false, true],
    [false, true, true],
    [false, false, false],
  ])('ops %s, demo %s → can edit requirements %s', (isOps, demoMode, expected) => {
    expect(canEditProcessRequirements({ isOps, demoMode })).toBe(expected);
  });

  it('shows notes only in an ops session', () => {
    expect(canSeeNotes({ isOpsSession: true })).toBe(true);
    expect(canSeeNotes({ isOpsSession: false })).toBe(false);
  });

  it.each([
    ['idsp', true],
    ['manual', false],
    ['OS', false],
    [null, false],
  ])('source %s locked: %s', (source, expected) => {
    expect(isLockedRecord({ source })).toBe(expected);
  });

  it.each([
    [{ dob: '1990-01-01', terms_agreed_at: '2024-01-01T00:00:00Z' }, false],
    [{ dob: null, terms_agreed_at: '2024-01-01T00:00:00Z' }, true],
    [{ dob: '1990-01-01', terms_agreed_at: null }, true],
    [{}, true],
  ])('%o needs completion: %s', (subject, expected) => {
    expect(needsProfileCompletion(subject)).toBe(expected);
  });
});
