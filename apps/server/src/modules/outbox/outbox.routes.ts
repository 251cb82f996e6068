import { outboxEmailOut } from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import { registerResource } from '../../platform/resource-router.js';
import { outboxEmails } from '../../platform/tables/outbox.table.js';

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
}
