import { describe, expect, it } from 'vitest';
import {
  DBS_RESULT_TEXTS,
  dbsDetailsStateText,
  driverDataMessage,
  licenceCheckMessage,
  ONLINE_IDV_TEXTS,
  trustToRideText,
} from './result-messages.js';

describe('result texts', () => {
  it('keeps the DBS fallbacks literal', () => {
    expect(DBS_RESULT_TEXTS.processing).toBe('This application is being processed by the DBS.');
    expect(dbsDetailsStateText('pending')).toBe('This application is awaiting verification.');
    expect(dbsDetailsStateText('verified')).toBe('This application is awaiting countersigning.');
  });

  it.each([
    ['AwaitingCheck', /awaiting a check/],
    ['DQ3', /14-28 working days/],
    [null, /Waiting for the subject to provide/],
    ['', /Waiting for the subject to provide/],
  ])('licence check %s', (status, message) => {
    expect(licenceCheckMessage(status)).toMatch(message);
  });

  it('needs no message for a finished check', () => {
    expect(licenceCheckMessage('Complete')).toBeNull();
  });

  it.each([
    ['ENQ018', null, /No driver record/],
    ['ENQ037', null, /up to 28 days before the record is released\.$/],
    ['ENQ037', '1st Jan 2024', /The mandate was signed on 1st Jan 2024\.$/],
  ])('driver data %s', (code, mandate, message) => {
    expect(driverDataMessage(code, mandate)).toMatch(message);
  });

  it('has no message for other codes', () => {
    expect(driverDataMessage('ENQ001')).toBeNull();
    expect(driverDataMessage(undefined)).toBeNull();
  });
});

describe('other panel texts', () => {
  it('says whether the subject attended', () => {
    expect(trustToRideText(true, '1st Jan 2024')).toBe('Attended the session on 1st Jan 2024');
    expect(trustToRideText(false, '2nd Jan 2024')).toBe(
      'Did not attend the session on 2nd Jan 2024',
    );
    expect(ONLINE_IDV_TEXTS.postOffice).toMatch(/Post Office/);
  });
});
