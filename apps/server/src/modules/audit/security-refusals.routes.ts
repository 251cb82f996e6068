import { securityRefusalOut } from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import { registerResource } from '../../platform/resource-router.js';
import { securityRefusals } from '../../platform/tables/audit.table.js';

type Row = typeof securityRefusals.$inferSelect;

const presentRefusal = (r: Row) => ({
  id: r.id,
  customer: r.customerId,
  actor_type: r.actorType,
  actor: r.actorId,
  actor_name: r.actorName,
  route: r.route,
  path: r.path,
  reason: r.reason,
  count: r.count,
  first_seen_at: r.firstSeenAt.toISOString(),
  last_seen_at: r.lastSeenAt.toISOString(),
});

const output = securityRefusalOut;

const common = {
  table: securityRefusals,
  id: securityRefusals.id,
  contentType: 'audit.securityrefusal',
  operations: ['list', 'retrieve'] as const,
  access: { read: { permissions: ['audit.view_auditaction' as const] } },
  present: presentRefusal,
  output,
  filters: {
    actor: securityRefusals.actorId,
    actor_type: securityRefusals.actorType,
    route: securityRefusals.route,
    reason: securityRefusals.reason,
  },
  search: [securityRefusals.route, securityRefusals.actorName],
  ordering: { last_seen_at: securityRefusals.lastSeenAt, count: securityRefusals.count },
};

/**
 * Refused requests, counted per actor, route and hour, apart from the activity trail:
 * /api/security-refusals/ (the session customer's, for its audit viewers) and
 * /api/ops/security-refusals/ (every customer's, `?customer=` to narrow).
 */
export async function securityRefusalRoutes(app: FastifyInstance) {
  registerResource(app, { ...common, path: '/api/security-refusals/' });
  registerResource(app, {
    ...common,
    path: '/api/ops/security-refusals/',
    context: 'ops',
    filters: { ...common.filters, customer: securityRefusals.customerId },
  });
}
