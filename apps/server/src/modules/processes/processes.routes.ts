import {
  processCreate,
  processOut,
  processUpdate,
  requirementOut,
  requirementsInput,
} from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/access.js';
import { diffChanges, recordAudit } from '../../platform/audit.js';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../platform/errors.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { registerResource } from '../../platform/resource-router.js';
import { readOnly, runInTenant } from '../../platform/service-context.js';
import { cases } from '../cases/cases.table.js';
import { segmentScope } from '../segments/segments.service.js';
import {
  augmentProcesses,
  mayEditRequirements,
  presentProcess,
  replaceRequirements,
  requirementsOf,
} from './processes.service.js';
import { processes } from './processes.table.js';

export const REQUIREMENTS_LOCKED = 'Requirements can be edited only by operations or in demo mode.';
/** Creating a process with checks follows the same rule as editing them (spec point 6). */
export const REQUIREMENTS_LOCKED_ON_CREATE =
  'Checks can be chosen only by operations or in demo mode. Create the process without checks and ask operations to add them.';

/** /api/processes/ and their requirements. */
export async function processesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;

  registerResource(app, {
    path: '/api/processes/',
    table: processes,
    id: processes.id,
    contentType: 'processes.process',
    access: {
      read: { permissions: ['processes.view_process'] },
      create: { permissions: ['processes.add_process'] },
      update: { permissions: ['processes.change_process'] },
      partial_update: { permissions: ['processes.change_process'] },
      delete: { permissions: ['processes.delete_process'] },
    },
    present: presentProcess,
    output: processOut,
    augment: (ctx, rows) => augmentProcesses(ctx.tx, ctx.actor, rows),
    repr: (p) => p.name,
    filters: { is_active: processes.isActive },
    search: [processes.name],
    ordering: { name: processes.name, created_at: processes.createdAt },
    defaultOrdering: 'name',
    create: {
      body: processCreate,
      run: async ({ tx, actor }, data) => {
        if (actor.customerId === null) throw new PermissionDeniedError();
        const { requirements, ...fields } = data;
        if (requirements.length > 0 && !(await mayEditRequirements(tx, actor))) {
          throw new PermissionDeniedError(REQUIREMENTS_LOCKED_ON_CREATE);
        }
        // a user limited to segments adds to (the first of) their segments, where they see it
        const scope = await segmentScope(tx);
        const [row] = await tx
          .insert(processes)
          .values({
            customerId: actor.customerId,
            segmentId: scope?.[0] ?? null,
            name: fields.name,
            description: fields.description,
            isActive: fields.is_active,
            sendInvitation: fields.send_invitation,
            reminderDays: fields.reminder_days,
            invitationMessage: fields.invitation_message,
            reminderSchedule: fields.reminder_schedule,
            invitationExpiryDays: fields.invitation_expiry_days,
            reminderSms: fields.reminder_sms,
          })
          .returning();
        if (!row) throw new NotFoundError();
        await replaceRequirements(tx, actor.customerId, row.id, requirements, 'requirements.');
        return row;
      },
    },
    update: {
      body: processUpdate,
      run: async ({ tx, clock }, existing, data) => {
        const [row] = await tx
          .update(processes)
          .set({
            ...(data.name !== undefined ? { name: data.name } : {}),
            ...(data.description !== undefined ? { description: data.description } : {}),
            ...(data.is_active !== undefined ? { isActive: data.is_active } : {}),
            ...(data.send_invitation !== undefined ? { sendInvitation: data.send_invitation } : {}),
            ...(data.reminder_days !== undefined ? { reminderDays: data.reminder_days } : {}),
            ...(data.invitation_message !== undefined
              ? { invitationMessage: data.invitation_message }
              : {}),
            ...(data.reminder_schedule !== undefined
              ? { reminderSchedule: data.reminder_schedule }
              : {}),
            ...(data.invitation_expiry_days !== undefined
              ? { invitationExpiryDays: data.invitation_expiry_days }
              : {}),
            ...(data.reminder_sms !== undefined ? { reminderSms: data.reminder_sms } : {}),
            updatedAt: clock.now(),
          })
          .where(eq(processes.id, existing.id))
          .returning();
        if (!row) throw new NotFoundError();
        return row;
      },
    },
    remove: {
      run: async ({ tx }, existing) => {
        const [used] = await tx
          .select({ id: cases.id })
          .from(cases)
          .where(eq(cases.processId, existing.id))
          .limit(1);
        if (used) {
          throw ValidationError.of('non_field_errors', 'A process with cases cannot be deleted.');
        }
        await tx.delete(processes).where(eq(processes.id, existing.id));
      },
    },
  });

  const findProcess = async (
    tx: Parameters<typeof requirementsOf>[0],
    id: number,
    lock = false,
  ) => {
    const q = tx.select().from(processes).where(eq(processes.id, id)).limit(1);
    const [p] = lock ? await q.for('update') : await q;
    if (!p) throw new NotFoundError();
    return p;
  };

  r.get(
    '/api/processes/:id/requirements/',
    {
      schema: {
        tags: ['processes'],
        params: idParams,
        response: { 200: z.array(requirementOut) },
      },
      config: { access: { permissions: ['processes.view_process'] } },
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInTenant(
        deps,
        actorOf(request),
        async ({ tx }) => {
          await findProcess(tx, id);
          return (await requirementsOf(tx, [id])).get(id) ?? [];
        },
        readOnly,
      );
    },
  );

  r.put(
    '/api/processes/:id/requirements/',
    {
      schema: {
        tags: ['processes'],
        params: idParams,
        body: requirementsInput,
        response: { 200: z.array(requirementOut) },
      },
      config: { access: { permissions: ['processes.change_process'] } },
    },
    async (request) => {
      const id = parseId(request.params.id);
      const list = request.body;
      return runInTenant(deps, actorOf(request), async ({ tx, actor }) => {
        const p = await findProcess(tx, id, true);
        if (!(await mayEditRequirements(tx, actor))) {
          throw new PermissionDeniedError(REQUIREMENTS_LOCKED);
        }
        const before = (await requirementsOf(tx, [id])).get(id) ?? [];
        await replaceRequirements(tx, p.customerId, id, list, '');
        const after = (await requirementsOf(tx, [id])).get(id) ?? [];
        const strip = (l: typeof after) =>
          l.map(({ activity_type, config }) => ({ activity_type, config }));
        await recordAudit(tx, actor, {
          verb: 'updated',
          contentType: 'processes.process',
          objectId: id,
          objectRepr: p.name,
          changes: diffChanges({ requirements: strip(before) }, { requirements: strip(after) }),
        });
        return after;
      });
    },
  );
}
