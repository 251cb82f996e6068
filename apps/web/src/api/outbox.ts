import type { OutboxEmailOut, OutboxSmsOut } from '@kestrel/domain';
import { defineResource } from './resource';

/** One email the server sent into the local outbox (contract: outboxEmailOut). */
export type OutboxEmail = OutboxEmailOut;

export const outboxEmails = defineResource<OutboxEmail>('/api/ops/outbox/', {
  item: 'email',
  plural: 'emails',
});

/** The list is newest first; the screen's own count query shares the table's first page. */
export const OUTBOX_LIST_PARAMS = { ordering: '-created_at' } as const;
export const OUTBOX_PAGE_SIZE = 25;

/** One text message the SMS simulator kept (contract: outboxSmsOut, issue 33). */
export type OutboxSms = OutboxSmsOut;

export const outboxTexts = defineResource<OutboxSms>('/api/ops/outbox-sms/', {
  item: 'text message',
  plural: 'text messages',
});
