import { describe, expect, it } from 'vitest';
import {
  otherRecordsRetention,
  REFUSAL_RETENTION_DAYS,
  RESULT_REDACTED_DETAIL,
} from './record-retention.js';
import {
  ACCESS_LOG_RETENTION_MONTHS,
  IMPORT_ROWS_RETENTION_DAYS,
  JOB_PAYLOAD_RETENTION_DAYS,
  OUTBOX_RETENTION_DAYS,
  WEBHOOK_PAYLOAD_RETENTION_DAYS,
} from './retention.js';

describe('other records', () => {
  it('names each fixed period from its constant, the access log by default at 24 months', () => {
    const byCode = Object.fromEntries(otherRecordsRetention().map((r) => [r.code, r.kept]));
    expect(byCode).toEqual({
      'access-log': `${ACCESS_LOG_RETENTION_MONTHS} months after the last view`,
      outbox: `${OUTBOX_RETENTION_DAYS} days after they are sent`,
      'webhook-payloads': `${WEBHOOK_PAYLOAD_RETENTION_DAYS} days after delivery`,
      'import-rows': `${IMPORT_ROWS_RETENTION_DAYS} days after the import finishes`,
      'job-payloads': `${JOB_PAYLOAD_RETENTION_DAYS} day after the task is archived`,
      refusals: `${REFUSAL_RETENTION_DAYS} days after the last refusal`,
    });
    expect(byCode['job-payloads']).toBe('1 day after the task is archived');
    expect(byCode.outbox).toBe('30 days after they are sent');
  });

  it("shows the customer's longer access-log period", () => {
    const log = otherRecordsRetention(36).find((r) => r.code === 'access-log');
    expect(log?.kept).toBe('36 months after the last view');
  });

  it('words the refusal of a write to a redacted result', () => {
    expect(RESULT_REDACTED_DETAIL).toMatch(/redacted.*can no longer be changed/);
  });
});
