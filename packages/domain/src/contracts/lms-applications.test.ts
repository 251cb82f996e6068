import { describe, expect, it } from 'vitest';
import {
  APPLICATION_MESSAGES,
  APPLICATION_STATE_LABELS,
  APPLICATION_STATES,
  applicationApplyInput,
  applicationRefuseInput,
  isOpenApplicationState,
  TAX_CHECK_CODE_INVALID,
} from './lms-applications.js';

describe('licence applications contract', () => {
  it('says why more information cannot be asked now', () => {
    expect(APPLICATION_MESSAGES.cannotRequestInfo('Granted')).toBe(
      'More information cannot be requested on this application now (Granted).',
    );
  });

  it("names the holder's suspended licence that stops a grant", () => {
    expect(APPLICATION_MESSAGES.holderSuspended('HCD/2026/00007')).toBe(
      "The applicant's licence HCD/2026/00007 of this type is suspended: reinstate or revoke it before granting this application.",
    );
  });

  it('names the renewed licence that has ended', () => {
    expect(APPLICATION_MESSAGES.renewedLicenceEnded('HCD/2026/00007', 'revoked')).toBe(
      'The licence HCD/2026/00007 this application renews is revoked: it can no longer be renewed. Refuse this application; the applicant may apply for a new licence.',
    );
  });

  it('takes a tax check code of 9 letters and digits, uppercased, spaces and dashes dropped', () => {
    expect(applicationApplyInput.parse({ tax_check_code: ' hmrc-123 45 ' })).toEqual({
      tax_check_code: 'HMRC12345',
    });
    for (const bad of ['HMRC1234', 'HMRC123456', 'HMRC1234!']) {
      const out = applicationApplyInput.safeParse({ tax_check_code: bad });
      expect(out.success).toBe(false);
      expect(out.error?.issues[0]?.message).toBe(TAX_CHECK_CODE_INVALID);
    }
    expect(applicationApplyInput.parse({})).toEqual({});
  });

  it('labels every state; the first three are open', () => {
    expect(Object.keys(APPLICATION_STATE_LABELS)).toEqual([...APPLICATION_STATES]);
    expect(APPLICATION_STATES.filter(isOpenApplicationState)).toEqual([
      'awaiting_payment',
      'in_progress',
      'more_info_requested',
    ]);
  });

  it('needs a reason to refuse, and says why a decision is refused', () => {
    expect(applicationRefuseInput.safeParse({ reason: '  ' }).success).toBe(false);
    expect(APPLICATION_MESSAGES.notDecidable('Granted')).toBe(
      'This application cannot be decided now (Granted).',
    );
    expect(APPLICATION_MESSAGES.checksIncomplete(['Enhanced DBS'])).toMatch(/Enhanced DBS\.$/);
  });
});
