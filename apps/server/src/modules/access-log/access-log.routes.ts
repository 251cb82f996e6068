import { auditDateFilters, recordViewOut } from '@kestrel/domain';
import { and, gte, lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { isoTimestamp } from '../../platform/json-sql.js';
import { queryDate, queryDateEnd } from '../../platform/query-params.js';
import type { Binder } from '../../platform/resource-query.js';
import { type ResourceContext, registerResource } from '../../platform/resource-router.js';
import { recordViews } from './access-log.table.js';

type Row = typeof recordViews.$inferSelect;

export const presentRecordView = (v: Row) => ({
  id: v.id,
  customer: v.customerId,
  case: v.caseId,
  item_kind: v.itemKind,
  item_id: v.itemId,
  item_label: v.itemLabel,
  how: v.how,
  actor_type: v.actorType,
  actor: v.actorId,
  actor_name: v.actorName,
  actor_is_ops: v.actorIsOps,
  count: v.count,
  first_seen_at: v.firstSeenAt.toISOString(),
  last_seen_at: v.lastSeenAt.toISOString(),
  ip: v.ip,
  user_agent: v.userAgent,
});

/** presentRecordView in SQL: PostgreSQL renders the list pages. */
const presentRecordViewSql = {
  id: recordViews.id,
  customer: recordViews.customerId,
  case: recordViews.caseId,
  item_kind: recordViews.itemKind,
  item_id: recordViews.itemId,
  item_label: recordViews.itemLabel,
  how: recordViews.how,
  actor_type: recordViews.actorType,
  actor: recordViews.actorId,
  actor_name: recordViews.actorName,
  actor_is_ops: recordViews.actorIsOps,
  count: recordViews.count,
  first_seen_at: isoTimestamp(recordViews.firstSeenAt),
  last_seen_at: isoTimestamp(recordViews.lastSeenAt),
  ip: recordViews.ip,
  user_agent: recordViews.userAgent,
};

const common = {
  table: recordViews,
  id: recordViews.id,
  contentType: 'audit.recordview',
  operations: ['list'] as const,
  // The record of who saw a certificate is the audit log's (the DBS code's record of those to
  // whom certificate information was revealed): its readers, not everyone who may see the case.
  access: { read: { permissions: ['audit.view_auditaction' as const] } },
  present: presentRecordView,
  presentSql: presentRecordViewSql,
  output: recordViewOut,
  filters: {
    case: recordViews.caseId,
    item_kind: recordViews.itemKind,
    item_id: recordViews.itemId,
    how: recordViews.how,
    actor: recordViews.actorId,
    actor_type: recordViews.actorType,
  },
  search: [recordViews.actorName, recordViews.itemLabel],
  ordering: {
    last_seen_at: recordViews.lastSeenAt,
    first_seen_at: recordViews.firstSeenAt,
    count: recordViews.count,
  },
  defaultOrdering: '-last_seen_at',
  // ?created_after= / ?created_before= (inclusive dates, UTC): the views seen within the range
  queryParams: auditDateFilters,
  where: ({ query }: ResourceContext, b: Binder) => {
    const after = queryDate(query, 'created_after');
    const before = queryDateEnd(query, 'created_before');
    return and(
      after ? gte(recordViews.lastSeenAt, b.bind('after', after)) : undefined,
      before ? lt(recordViews.firstSeenAt, b.bind('before', before)) : undefined,
    );
  },
};

/**
 * Who saw what (issue 34): /api/record-views/ (the session customer's, for its audit viewers;
 * `?case=` for a case's) and /api/ops/record-views/ (every customer's, `?customer=` to narrow).
 */
export async function accessLogRoutes(app: FastifyInstance) {
  registerResource(app, { ...common, path: '/api/record-views/' });
  registerResource(app, {
    ...common,
    path: '/api/ops/record-views/',
    context: 'ops',
    filters: { ...common.filters, customer: recordViews.customerId },
  });
}
