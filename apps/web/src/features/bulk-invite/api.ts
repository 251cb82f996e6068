import type { BulkInvitePreviewOut, BulkInviteResultOut } from '@kestrel/domain';
import { type ApiResult, request } from '../../api/client';

export const BULK_INVITE_PATH = '/api/cases/bulk-invite/';

/** Checks the CSV's rows (POST /api/cases/bulk-invite/preview/): nothing is written. */
export const previewBulkInvite = (process: number, csv: string) =>
  request<BulkInvitePreviewOut>('POST', `${BULK_INVITE_PATH}preview/`, {
    body: { process, csv },
    expect: 200,
  });

/** Opens a case for each good row (POST /api/cases/bulk-invite/). */
export const confirmBulkInvite = (
  process: number,
  csv: string,
): Promise<ApiResult<BulkInviteResultOut>> =>
  request<BulkInviteResultOut>('POST', BULK_INVITE_PATH, { body: { process, csv }, expect: 201 });

/** The first message of a 400 body's field (`{csv: ['...']}`), else null. */
export function fieldMessage(
  body: Readonly<Record<string, unknown>>,
  field: string,
): string | null {
  const v = body[field];
  return Array.isArray(v) && typeof v[0] === 'string' ? v[0] : null;
}
