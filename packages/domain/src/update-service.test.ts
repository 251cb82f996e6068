import { describe, expect, it } from 'vitest';
import {
  certificateStatusMeaning,
  UPDATE_SERVICE_STATUS_LABELS,
  updateServiceStatus,
} from './update-service.js';

describe('certificate statuses', () => {
  it.each([
    ['BLANK_NO_NEW_INFO', /did not reveal any information and remains current/],
    ['NON_BLANK_NO_NEW_INFO', /remains current as no further information/],
    ['NEW_INFO', /no longer current. Please apply for a new check/],
    ['NO_MATCH_FOUND', /^No match found\.$/],
    ['SOMETHING_ELSE', /^Unexpected status\.$/],
    ['toString', /^Unexpected status\.$/],
    [null, /^Unexpected status\.$/],
  ])('%s', (status, meaning) => {
    expect(certificateStatusMeaning(status)).toMatch(meaning);
  });

  it.each([
    ['BLANK_NO_NEW_INFO', 'registered'],
    ['NON_BLANK_NO_NEW_INFO', 'registered'],
    ['NEW_INFO', 'registered'],
    ['NO_MATCH_FOUND', 'not-registered'],
    [null, 'pending'],
    ['', 'pending'],
    ['WHATEVER', 'pending'],
  ])('update service status for %s is %s', (status, expected) => {
    expect(updateServiceStatus(status)).toBe(expected);
  });

  it('labels the statuses', () => {
    expect(Object.values(UPDATE_SERVICE_STATUS_LABELS)).toEqual([
      'Registered',
      'Pending',
      'Not registered',
    ]);
  });
});
