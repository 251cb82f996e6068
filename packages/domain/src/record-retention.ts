import {
  ACCESS_LOG_RETENTION_MONTHS,
  IMPORT_ROWS_RETENTION_DAYS,
  JOB_PAYLOAD_RETENTION_DAYS,
  OUTBOX_RETENTION_DAYS,
  WEBHOOK_PAYLOAD_RETENTION_DAYS,
} from './retention.js';

/*
 * Issue 34: the records no customer rule covers, as the settings page shows them (read-only),
 * and what a staff member's result write gets when the activity's result was redacted.
 */

/**
 * How long the counted refused requests (`security_refusals`) are kept after they were last
 * seen: long enough to look back over a quarter's attempts from the audit log page, short enough
 * that a flood does not grow for ever (the housekeeping job deletes them).
 */
export const REFUSAL_RETENTION_DAYS = 90;

/** One kind of record with a fixed period, in plain words. */
export interface OtherRecordRetention {
  code: 'outbox' | 'job-payloads' | 'access-log' | 'webhook-payloads' | 'import-rows' | 'refusals';
  name: string;
  /** How long it is kept: "30 days after they are sent". */
  kept: string;
  /** What stays after it, or '' when the whole record goes. */
  keeps: string;
}

const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

/**
 * The records kept for a fixed period whatever the customer's rules, for the settings page's
 * "Other records": from the constants the retention run and housekeeping apply. `accessLogMonths`
 * is the customer's (`accessLogMonths(settings)`: the default, or its longer criminal-record
 * periods).
 */
export function otherRecordsRetention(
  accessLogMonths = ACCESS_LOG_RETENTION_MONTHS,
): OtherRecordRetention[] {
  return [
    {
      code: 'access-log',
      name: 'Record of who viewed results and documents',
      kept: `${accessLogMonths} months after the last view`,
      keeps: '',
    },
    {
      code: 'outbox',
      name: 'Emails and text messages sent',
      kept: `${days(OUTBOX_RETENTION_DAYS)} after they are sent`,
      keeps: '',
    },
    {
      code: 'webhook-payloads',
      name: 'Webhook delivery content',
      kept: `${days(WEBHOOK_PAYLOAD_RETENTION_DAYS)} after delivery`,
      keeps: 'The delivery’s event, status, attempts and times',
    },
    {
      code: 'import-rows',
      name: 'Values read from imported files',
      kept: `${days(IMPORT_ROWS_RETENTION_DAYS)} after the import finishes`,
      keeps: 'Each row’s number, outcome and errors',
    },
    {
      code: 'job-payloads',
      name: 'Data held for background tasks',
      kept: `${days(JOB_PAYLOAD_RETENTION_DAYS)} after the task is archived`,
      keeps: 'The task’s kind, state and times',
    },
    {
      code: 'refusals',
      name: 'Refused requests',
      kept: `${days(REFUSAL_RETENTION_DAYS)} after the last refusal`,
      keeps: '',
    },
  ];
}

/**
 * 409 to a staff member's write of a result (a manual right-to-work check, a manual identity
 * approval, an adult-first stage) on an activity whose result was redacted (a retention rule or
 * an erasure): the write would put the removed content back.
 */
export const RESULT_REDACTED_DETAIL =
  'This check’s result was redacted under the retention policy or an erasure request: it can no longer be changed.';
