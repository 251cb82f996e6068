import { outboxEmailOut, outboxSmsOut } from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import { registerResource } from '../../platform/resource-router.js';
import { outboxEmails } from '../../platform/tables/outbox.table.js';
import { outboxSms } from '../reminders/reminders.table.js';

/** /api/ops/outbox/: the local mail outbox (every email when SMTP is not configured). */
export async function outboxRoutes(app: FastifyInstance) {
  registerResource(app, {
    path: '/api/ops/outbox/',
    table: outboxEmails,
    id: outboxEmails.id,
    contentType: 'outbox.email',
    context: 'ops',
    operations: ['list', 'retrieve'],
    access: { read: { permissions: ['outbox.view_email'] } },
    present: (m) => ({
      id: m.id,
      to: m.to,
      subject: m.subject,
      text: m.text,
      html: m.html,
      created_at: m.createdAt.toISOString(),
    }),
    output: outboxEmailOut,
    filters: { to: outboxEmails.to },
    search: [outboxEmails.to, outboxEmails.subject],
    ordering: { created_at: outboxEmails.createdAt },
  });
  // issue 33: the text messages the SMS simulator kept, beside the emails
  registerResource(app, {
    path: '/api/ops/outbox-sms/',
    table: outboxSms,
    id: outboxSms.id,
    contentType: 'outbox.sms',
    context: 'ops',
    operations: ['list', 'retrieve'],
    access: { read: { permissions: ['outbox.view_email'] } },
    present: (m) => ({
      id: m.id,
      to: m.to,
      body: m.body,
      template_id: m.templateId,
      brand: m.brand,
      reference: m.reference,
      created_at: m.createdAt.toISOString(),
    }),
    output: outboxSmsOut,
    filters: { to: outboxSms.to },
    search: [outboxSms.to, outboxSms.reference],
    ordering: { created_at: outboxSms.createdAt },
  });
}
