import {
  noContent,
  pageOut,
  segmentCreate,
  segmentOut,
  segmentProcessAdd,
  segmentProcessOut,
  segmentUpdate,
  segmentUserAdd,
  segmentUserOut,
} from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, opsActorOf } from '../../platform/access.js';
import { absentBodyAsEmpty } from '../../platform/body-parsing.js';
import { NotFoundError, PermissionDeniedError } from '../../platform/errors.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { registerResource } from '../../platform/resource-router.js';
import { readOnly, runInOps, runInTenant } from '../../platform/service-context.js';
import {
  addMember,
  assignProcess,
  customerSegments,
  findSegment,
  presentSegment,
  releaseProcesses,
  removeMember,
  SEGMENT_CT,
  segmentCounts,
  segmentMembers,
  segmentProcesses,
  segmentScope,
  unassignProcess,
} from './segments.service.js';
import { segments } from './segments.table.js';

/** A user limited to segments may not move processes between segments (out of their own sight). */
export const LIMITED_USER_PROCESSES =
  'Only a user who is not limited to segments can change which processes a segment has.';

/**
 * Nor who is in a segment: a user who left their only segment would see the whole organisation,
 * and one who took others out of theirs would widen what those see.
 */
export const LIMITED_USER_MEMBERS =
  'Only a user who is not limited to segments can change who is in a segment.';

const userParams = idParams.extend({ userId: z.string().max(20) });
const processParams = idParams.extend({ processId: z.string().max(20) });
const VIEW = { access: { permissions: ['segments.view_segment' as const] } };
const CHANGE = { access: { permissions: ['segments.change_segment' as const] } };
/** Every row in one page: a segment's users and processes are few. */
const whole = <T>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

/** /api/segments/, their users and processes; /api/ops/customers/{id}/segments/. */
export async function segmentsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;

  registerResource(app, {
    path: '/api/segments/',
    table: segments,
    id: segments.id,
    contentType: SEGMENT_CT,
    access: {
      read: { permissions: ['segments.view_segment'] },
      create: { permissions: ['segments.add_segment'] },
      update: { permissions: ['segments.change_segment'] },
      partial_update: { permissions: ['segments.change_segment'] },
      delete: { permissions: ['segments.delete_segment'] },
    },
    present: presentSegment,
    output: segmentOut,
    augment: (ctx, rows) => segmentCounts(ctx.tx, rows),
    repr: (s) => s.name,
    search: [segments.name, segments.employerName, segments.town],
    ordering: { name: segments.name, created_at: segments.createdAt },
    defaultOrdering: 'name',
    create: {
      body: segmentCreate,
      run: async ({ tx, actor }, data) => {
        if (actor.customerId === null) throw new PermissionDeniedError();
        const [row] = await tx
          .insert(segments)
          .values({
            customerId: actor.customerId,
            name: data.name,
            employerName: data.employer_name,
            lineOne: data.line_one,
            lineTwo: data.line_two,
            town: data.town,
            postcode: data.postcode,
            contactName: data.contact_name,
            contactEmail: data.contact_email,
            contactPhone: data.contact_phone,
          })
          .returning();
        if (!row) throw new NotFoundError();
        return row;
      },
    },
    update: {
      body: segmentUpdate,
      run: async ({ tx, clock }, existing, data) => {
        const [row] = await tx
          .update(segments)
          .set({
            ...(data.name !== undefined ? { name: data.name } : {}),
            ...(data.employer_name !== undefined ? { employerName: data.employer_name } : {}),
            ...(data.line_one !== undefined ? { lineOne: data.line_one } : {}),
            ...(data.line_two !== undefined ? { lineTwo: data.line_two } : {}),
            ...(data.town !== undefined ? { town: data.town } : {}),
            ...(data.postcode !== undefined ? { postcode: data.postcode } : {}),
            ...(data.contact_name !== undefined ? { contactName: data.contact_name } : {}),
            ...(data.contact_email !== undefined ? { contactEmail: data.contact_email } : {}),
            ...(data.contact_phone !== undefined ? { contactPhone: data.contact_phone } : {}),
            updatedAt: clock.now(),
          })
          .where(eq(segments.id, existing.id))
          .returning();
        if (!row) throw new NotFoundError();
        return row;
      },
    },
    remove: {
      run: async ({ tx }, existing) => {
        if ((await segmentScope(tx)) !== null) {
          throw new PermissionDeniedError(LIMITED_USER_PROCESSES);
        }
        // its processes return to the whole organisation; its users' rows go with it (cascade)
        await releaseProcesses(tx, existing);
        await tx.delete(segments).where(eq(segments.id, existing.id));
      },
    },
  });

  r.get(
    '/api/segments/:id/users/',
    {
      schema: { tags: ['segments'], params: idParams, response: { 200: pageOut(segmentUserOut) } },
      config: VIEW,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInTenant(
        deps,
        actorOf(request),
        async ({ tx }) => whole(await segmentMembers(tx, await findSegment(tx, id))),
        readOnly,
      );
    },
  );

  r.post(
    '/api/segments/:id/users/',
    {
      schema: {
        tags: ['segments'],
        params: idParams,
        body: segmentUserAdd,
        response: { 201: segmentUserOut },
      },
      preValidation: absentBodyAsEmpty,
      config: CHANGE,
    },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const out = await runInTenant(deps, actorOf(request), async ({ tx, actor }) => {
        const segment = await findSegment(tx, id, true);
        if ((await segmentScope(tx)) !== null) {
          throw new PermissionDeniedError(LIMITED_USER_MEMBERS);
        }
        return addMember(tx, actor, segment, request.body.user);
      });
      return reply.code(201).send(out);
    },
  );

  r.delete(
    '/api/segments/:id/users/:userId/',
    {
      schema: { tags: ['segments'], params: userParams, response: { 204: noContent } },
      config: CHANGE,
    },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const userId = parseId(request.params.userId);
      await runInTenant(deps, actorOf(request), async ({ tx, actor }) => {
        const segment = await findSegment(tx, id, true);
        if ((await segmentScope(tx)) !== null) {
          throw new PermissionDeniedError(LIMITED_USER_MEMBERS);
        }
        await removeMember(tx, actor, segment, userId);
      });
      return reply.code(204).send();
    },
  );

  r.get(
    '/api/segments/:id/processes/',
    {
      schema: {
        tags: ['segments'],
        params: idParams,
        response: { 200: pageOut(segmentProcessOut) },
      },
      config: VIEW,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInTenant(
        deps,
        actorOf(request),
        async ({ tx }) => whole(await segmentProcesses(tx, await findSegment(tx, id))),
        readOnly,
      );
    },
  );

  r.post(
    '/api/segments/:id/processes/',
    {
      schema: {
        tags: ['segments'],
        params: idParams,
        body: segmentProcessAdd,
        response: { 201: segmentProcessOut },
      },
      preValidation: absentBodyAsEmpty,
      config: CHANGE,
    },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const out = await runInTenant(deps, actorOf(request), async ({ tx, actor, clock }) => {
        const segment = await findSegment(tx, id, true);
        if ((await segmentScope(tx)) !== null) {
          throw new PermissionDeniedError(LIMITED_USER_PROCESSES);
        }
        return assignProcess(tx, actor, segment, request.body.process, clock.now());
      });
      return reply.code(201).send(out);
    },
  );

  r.delete(
    '/api/segments/:id/processes/:processId/',
    {
      schema: { tags: ['segments'], params: processParams, response: { 204: noContent } },
      config: CHANGE,
    },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const processId = parseId(request.params.processId);
      await runInTenant(deps, actorOf(request), async ({ tx, actor, clock }) => {
        const segment = await findSegment(tx, id, true);
        if ((await segmentScope(tx)) !== null) {
          throw new PermissionDeniedError(LIMITED_USER_PROCESSES);
        }
        await unassignProcess(tx, actor, segment, processId, clock.now());
      });
      return reply.code(204).send();
    },
  );

  // The ops customer screen's segments tab: read only.
  r.get(
    '/api/ops/customers/:id/segments/',
    {
      schema: {
        tags: ['ops'],
        params: idParams,
        response: { 200: z.strictObject({ results: z.array(segmentOut) }) },
      },
      config: { access: { permissions: ['customers.view_all_customers'] } },
    },
    async (request) => ({
      results: await runInOps(
        deps,
        opsActorOf(request),
        ({ tx }) => customerSegments(tx, parseId(request.params.id)),
        readOnly,
      ),
    }),
  );
}
