import { flagCreate, flagOut, flagResolve, opsFlagOut } from '@kestrel/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Tx } from '../../db/connection.js';
import { actorOf } from '../../platform/access.js';
import { recordAudit } from '../../platform/audit.js';
import { absentBodyAsEmpty } from '../../platform/body-parsing.js';
import { iso } from '../../platform/clock.js';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../platform/errors.js';
import type { ResourceContext } from '../../platform/resource-definition.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { registerResource } from '../../platform/resource-router.js';
import { runInTenant } from '../../platform/service-context.js';
import { cases } from '../cases/cases.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { emitWebhookEvent } from '../webhooks/webhook-events.js';
import { flags } from './flags.table.js';

type FlagRow = typeof flags.$inferSelect;
export const FLAG_CT = 'flags.flag';

export const presentFlag = (f: FlagRow) => ({
  id: f.id,
  case: f.caseId,
  subject: f.subjectId,
  kind: f.kind,
  message: f.message,
  active: f.active,
  created_at: f.createdAt.toISOString(),
  created_by_name: f.createdByName,
  resolved_at: iso(f.resolvedAt),
  resolved_by_name: f.resolvedByName,
  resolution_comment: f.resolutionComment,
});

/** The subject's name of each flag (its own subject, or its case's): one query per page. */
async function subjectNames(tx: Tx, rows: FlagRow[]): Promise<{ subject_name: string | null }[]> {
  const caseIds = rows.flatMap((f) => (f.caseId === null ? [] : [f.caseId]));
  const caseSubject =
    caseIds.length === 0
      ? []
      : await tx
          .select({ id: cases.id, subjectId: cases.subjectId })
          .from(cases)
          .where(inArray(cases.id, caseIds));
  const subjectOfCase = new Map(caseSubject.map((c) => [c.id, c.subjectId]));
  const subjectIds = [
    ...new Set(
      rows.flatMap((f) => {
        const s = f.subjectId ?? (f.caseId === null ? undefined : subjectOfCase.get(f.caseId));
        return s === undefined ? [] : [s];
      }),
    ),
  ];
  const names =
    subjectIds.length === 0
      ? []
      : await tx
          .select({
            id: subjects.id,
            first: subjects.firstName,
            last: subjects.lastName,
          })
          .from(subjects)
          .where(inArray(subjects.id, subjectIds));
  const nameOf = new Map(names.map((n) => [n.id, `${n.first} ${n.last}`]));
  return rows.map((f) => {
    const s = f.subjectId ?? (f.caseId === null ? undefined : subjectOfCase.get(f.caseId));
    return { subject_name: s === undefined ? null : (nameOf.get(s) ?? null) };
  });
}

const flagFilters = {
  active: flags.active,
  case: flags.caseId,
  subject: flags.subjectId,
  kind: flags.kind,
};

/**
 * /api/flags/: list, raise by hand, resolve with a comment. /api/ops/flags/: every customer's
 * flags for ops staff (list and retrieve, `?customer=ID`), each with its customer.
 */
export async function flagsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const read = {
    table: flags,
    id: flags.id,
    contentType: FLAG_CT,
    augment: ({ tx }: ResourceContext, rows: FlagRow[]) => subjectNames(tx, rows),
    repr: (f: FlagRow) => f.message.slice(0, 200),
    search: [flags.message],
    ordering: { created_at: flags.createdAt },
    defaultOrdering: '-created_at',
  };

  registerResource(app, {
    ...read,
    path: '/api/ops/flags/',
    context: 'ops',
    operations: ['list', 'retrieve'],
    access: { read: { permissions: ['flags.view_flag'] } },
    present: (f) => ({ ...presentFlag(f), customer: f.customerId }),
    output: opsFlagOut,
    filters: { ...flagFilters, customer: flags.customerId },
  });

  registerResource(app, {
    ...read,
    path: '/api/flags/',
    operations: ['list', 'retrieve', 'create'],
    access: {
      read: { permissions: ['flags.view_flag'] },
      create: { permissions: ['flags.change_flag'] },
    },
    present: presentFlag,
    output: flagOut,
    filters: flagFilters,
    create: {
      body: flagCreate,
      run: async ({ tx, actor }, data) => {
        if (actor.customerId === null) throw new PermissionDeniedError();
        const caseId = data.case ?? null;
        const subjectId = data.subject ?? null;
        if ((caseId === null) === (subjectId === null)) {
          throw ValidationError.of('non_field_errors', 'Give case or subject.');
        }
        if (caseId !== null) {
          const [c] = await tx.select({ id: cases.id }).from(cases).where(eq(cases.id, caseId));
          if (!c) throw ValidationError.doesNotExist('case', caseId);
        }
        if (subjectId !== null) {
          const [s] = await tx
            .select({ id: subjects.id })
            .from(subjects)
            .where(eq(subjects.id, subjectId));
          if (!s) throw ValidationError.doesNotExist('subject', subjectId);
        }
        const [row] = await tx
          .insert(flags)
          .values({
            customerId: actor.customerId,
            caseId,
            subjectId,
            kind: 'manual',
            message: data.message,
            createdByName: actor.name,
          })
          .returning();
        if (!row) throw new NotFoundError();
        await emitWebhookEvent(
          tx,
          row.customerId,
          'flag.raised',
          { flag: { id: row.id, kind: row.kind, case: row.caseId, subject: row.subjectId } },
          row.createdAt,
        );
        return row;
      },
    },
  });

  r.post(
    '/api/flags/:id/resolve/',
    {
      schema: {
        tags: ['flags'],
        params: idParams,
        body: flagResolve,
        response: { 200: flagOut },
      },
      // No body is a missing comment ('Required'), as `{}` is.
      preValidation: absentBodyAsEmpty,
      config: { access: { permissions: ['flags.change_flag'] } },
    },
    async (request) => {
      const id = parseId(request.params.id);
      const data = request.body;
      return runInTenant(deps, actorOf(request), async ({ tx, actor }) => {
        const [f] = await tx.select().from(flags).where(eq(flags.id, id)).for('update');
        if (!f) throw new NotFoundError();
        if (!f.active)
          throw ValidationError.of('non_field_errors', 'This flag is already resolved.');
        const [row] = await tx
          .update(flags)
          .set({
            active: false,
            resolvedAt: app.deps.clock.now(),
            resolvedByName: actor.name,
            resolutionComment: data.comment,
          })
          .where(and(eq(flags.customerId, f.customerId), eq(flags.id, id)))
          .returning();
        if (!row) throw new NotFoundError();
        await recordAudit(tx, actor, {
          verb: 'resolved',
          contentType: FLAG_CT,
          objectId: id,
          objectRepr: f.message.slice(0, 200),
          changes: { active: [true, false], resolution_comment: data.comment },
        });
        return { ...presentFlag(row), subject_name: null };
      });
    },
  );
}
