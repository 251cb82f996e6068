import type { FastifyRequest } from 'fastify';
import { actorOf, runForRequest } from '../../platform/access.js';
import {
  type RunOptions,
  runInTenant,
  type ServiceContext,
} from '../../platform/service-context.js';
import { CASE_RECORD_TABLES, subjectCaseActor, subjectRecordActor } from './subject-scope.js';

type CaseRecordTable = (typeof CASE_RECORD_TABLES)[number];

const isCaseRecordTable = (table: string): table is CaseRecordTable =>
  (CASE_RECORD_TABLES as readonly string[]).includes(table);

/**
 * What a case-scoped request is about: a case by its id, or a record of a case (an address,
 * another name, a document) by its table and id.
 */
export type CaseTarget = { case: number } | { table: string; id: number };

/**
 * `runForRequest` for routes about one case, the one way the case-data and case-documents routes
 * run: staff and ops as `runForRequest` does; a subject acting for the customer of the case
 * (`subjectCaseActor` / `subjectRecordActor`) when that case is the subject's own, so a person
 * held by several customers (decision 005) reaches the case at each of them. Anything else (not
 * the subject's, unknown, not a whole number) leaves the session's actor, and RLS answers 404.
 */
export async function runForCaseRequest<T>(
  request: FastifyRequest,
  scope: 'ops' | 'staff' | 'subject',
  target: CaseTarget,
  fn: (ctx: ServiceContext) => Promise<T>,
  opts?: RunOptions,
): Promise<T> {
  if (scope !== 'subject') return runForRequest(request, scope, fn, opts);
  const deps = request.server.deps;
  const session = actorOf(request);
  let actor = session;
  if ('case' in target) {
    if (Number.isSafeInteger(target.case)) {
      actor = await subjectCaseActor(deps, session, target.case);
    }
  } else if (Number.isSafeInteger(target.id) && isCaseRecordTable(target.table)) {
    actor = await subjectRecordActor(deps, session, target.table, target.id);
  }
  return runInTenant(deps, actor, fn, opts);
}
