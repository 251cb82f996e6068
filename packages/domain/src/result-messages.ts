/** Texts of the result panels (spec point 2) that both the server and the web app show. */
export const DBS_RESULT_TEXTS = {
  receiptsUnavailable: 'DBS Receipts not yet available',
  resultsUnavailable: 'DBS Results not yet available',
  trackingUnavailable: 'DBS Tracking not yet available',
  processing: 'This application is being processed by the DBS.',
  awaitingVerification: 'This application is awaiting verification.',
  awaitingCountersigning: 'This application is awaiting countersigning.',
  /** While a top-up is awaited, with its payment link (see checks/top-up.ts). */
  awaitingTopUp: 'Awaiting top-up payment',
  notACertificate: 'This is not a certificate issued by the DBS',
} as const;

/** DBS details state: pending shows as awaiting verification, verified as awaiting countersigning. */
export const DBS_DETAILS_STATES = ['pending', 'verified'] as const;
export type DbsDetailsState = (typeof DBS_DETAILS_STATES)[number];
export function dbsDetailsStateText(state: DbsDetailsState): string {
  return state === 'pending'
    ? DBS_RESULT_TEXTS.awaitingVerification
    : DBS_RESULT_TEXTS.awaitingCountersigning;
}

export const KNOWLEDGE_TEST_NOT_COMPLETED = 'This knowledge test has not yet been completed';

export const LICENCE_CHECK_STATUSES = {
  awaitingCheck: 'AwaitingCheck',
  manualResponse: 'DQ3',
} as const;
export const DVLA_MANUAL_RESPONSE_DAYS = '14-28';

/** The message shown for a licence check status, or `null` when the status needs none. */
export function licenceCheckMessage(status: string | null | undefined): string | null {
  switch (status) {
    case 'AwaitingCheck':
      return 'This licence is awaiting a check with the DVLA. The result will appear here once the check is complete.';
    case 'DQ3':
      return 'The DVLA is responding to this check manually. A manual response takes 14-28 working days.';
    case null:
    case undefined:
    case '':
      return 'Waiting for the subject to provide their driving licence details.';
    default:
      return null;
  }
}

export const DRIVER_DATA_CODES = { noRecord: 'ENQ018', suppressed: 'ENQ037' } as const;
export const SUPPRESSED_RECORD_MAX_DAYS = 28;

/** The driver-data message for an enquiry code, or `null` for any other code. */
export function driverDataMessage(
  code: string | null | undefined,
  mandateDate?: string | null,
): string | null {
  if (code === 'ENQ018') return 'No driver record was found for the details given.';
  if (code === 'ENQ037') {
    const since = mandateDate ? ` The mandate was signed on ${mandateDate}.` : '';
    return `This driver record is suppressed by the DVLA. It can take up to 28 days before the record is released.${since}`;
  }
  return null;
}

/** Trust-to-ride result: attended or did not attend the session on a date. */
export function trustToRideText(attended: boolean, date: string): string {
  return `${attended ? 'Attended' : 'Did not attend'} the session on ${date}`;
}

/** Online identity verification panel texts (our own wording). */
export const ONLINE_IDV_TEXTS = {
  manual: 'This identity was verified manually by a member of staff.',
  postOffice: 'This identity was verified in person at a Post Office branch.',
  rtwNotDigital:
    'Right to work was not verified digitally. A manual right to work check is needed.',
} as const;
