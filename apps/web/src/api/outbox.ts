import { defineResource } from './resource';

/** One email the server sent into the local outbox (every email when SMTP is not configured). */
export interface OutboxEmail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  created_at: string;
}

export const outboxEmails = defineResource<OutboxEmail>('/api/ops/outbox/', {
  item: 'email',
  plural: 'emails',
});

/** The list is newest first; the screen's own count query shares the table's first page. */
export const OUTBOX_LIST_PARAMS = { ordering: '-created_at' } as const;
export const OUTBOX_PAGE_SIZE = 25;
