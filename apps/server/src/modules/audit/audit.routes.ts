import { auditActionOut, auditDateFilters } from '@kestrel/domain';
import { and, gte, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { isoTimestamp } from '../../platform/json-sql.js';
import { queryDate, queryDateEnd } from '../../platform/query-params.js';
import type { Binder } from '../../platform/resource-query.js';
import { type ResourceContext, registerResource } from '../../platform/resource-router.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { securityRefusalRoutes } from './security-refusals.routes.js';

type Row = typeof auditActions.$inferSelect;

export const presentAuditAction = (a: Row) => ({
  id: a.id,
  customer: a.customerId,
  actor_type: a.actorType,
  actor: a.actorId,
  actor_name: a.actorName,
  verb: a.verb,
  content_type: a.contentType,
  object_id: a.objectId,
  object_repr: a.objectRepr,
  changes: a.changes,
  created_at: a.createdAt.toISOString(),
});

/** presentAuditAction in SQL: PostgreSQL renders the list pages. */
const presentAuditActionSql = {
  id: auditActions.id,
  customer: auditActions.customerId,
  actor_type: auditActions.actorType,
  actor: auditActions.actorId,
  actor_name: auditActions.actorName,
  verb: auditActions.verb,
  content_type: auditActions.contentType,
  object_id: auditActions.objectId,
  object_repr: auditActions.objectRepr,
  changes: auditActions.changes,
  created_at: isoTimestamp(auditActions.createdAt),
};

const output = auditActionOut;

/**
 * Operations' list across customers leaves out `changes.personal`: the old and new values of
 * personal data (case data writes) stay with the customer's own staff.
 */
export const presentOpsAuditAction = (a: Row) => {
  const { personal: _, ...changes } = a.changes;
  return { ...presentAuditAction(a), changes };
};
const presentOpsAuditActionSql = {
  ...presentAuditActionSql,
  changes: sql`(${auditActions.changes} - 'personal')`,
};

const common = {
  table: auditActions,
  id: auditActions.id,
  contentType: 'audit.auditaction',
  operations: ['list', 'retrieve'] as const,
  access: { read: { permissions: ['audit.view_auditaction' as const] } },
  present: presentAuditAction,
  presentSql: presentAuditActionSql,
  output,
  filters: {
    verb: auditActions.verb,
    content_type: auditActions.contentType,
    object_id: auditActions.objectId,
    actor: auditActions.actorId,
    actor_type: auditActions.actorType,
  },
  search: [auditActions.objectRepr, auditActions.actorName],
  ordering: { created_at: auditActions.createdAt },
  // ?created_after= / ?created_before= (inclusive dates, UTC)
  queryParams: auditDateFilters,
  where: ({ query }: ResourceContext, b: Binder) => {
    const after = queryDate(query, 'created_after');
    const before = queryDateEnd(query, 'created_before');
    return and(
      after ? gte(auditActions.createdAt, b.bind('after', after)) : undefined,
      before ? lt(auditActions.createdAt, b.bind('before', before)) : undefined,
    );
  },
  // the hot list: built once per shape, its values bound
  preparedList: true,
};

/**
 * /api/audit-actions/ (the session customer's) and /api/ops/audit-actions/ (every customer), and
 * beside them the counted refusals (security-refusals.routes.ts).
 */
export async function auditRoutes(app: FastifyInstance) {
  // Operations staff in a customer's session see that customer's trail without personal values.
  registerResource(app, {
    ...common,
    path: '/api/audit-actions/',
    opsPresent: { present: presentOpsAuditAction, presentSql: presentOpsAuditActionSql },
  });
  registerResource(app, {
    ...common,
    path: '/api/ops/audit-actions/',
    context: 'ops',
    present: presentOpsAuditAction,
    presentSql: presentOpsAuditActionSql,
    filters: { ...common.filters, customer: auditActions.customerId },
  });
  await securityRefusalRoutes(app);
}
