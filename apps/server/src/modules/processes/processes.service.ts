import {
  ACTIVITY_KINDS,
  canEditProcessRequirements,
  isActivityKindCode,
  type RequirementInput,
  type RequirementOut,
} from '@kestrel/domain';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import type { Actor } from '../../platform/context.js';
import { ValidationError } from '../../platform/errors.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { cases } from '../cases/cases.table.js';
import { customerActivityTypes, customers } from '../customers/customers.table.js';
import { type processes, processRequirements } from './processes.table.js';

export type ProcessRow = typeof processes.$inferSelect;

export function presentProcess(p: ProcessRow) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    is_active: p.isActive,
    send_invitation: p.sendInvitation,
    reminder_days: p.reminderDays,
    invitation_message: p.invitationMessage,
    reminder_schedule: p.reminderSchedule,
    invitation_expiry_days: p.invitationExpiryDays,
    reminder_sms: p.reminderSms,
    created_at: p.createdAt.toISOString(),
  };
}

/** Requirements of the given processes, ordered, in one query. */
export async function requirementsOf(
  tx: Tx,
  processIds: number[],
): Promise<Map<number, RequirementOut[]>> {
  const out = new Map<number, RequirementOut[]>();
  if (processIds.length === 0) return out;
  const rows = await tx
    .select({
      processId: processRequirements.processId,
      id: processRequirements.id,
      position: processRequirements.position,
      config: processRequirements.config,
      code: activityTypes.code,
      name: activityTypes.name,
      kind: activityTypes.kind,
    })
    .from(processRequirements)
    .innerJoin(activityTypes, eq(activityTypes.id, processRequirements.activityTypeId))
    .where(inArray(processRequirements.processId, processIds))
    .orderBy(asc(processRequirements.position), asc(processRequirements.id));
  for (const r of rows) {
    const list = out.get(r.processId) ?? [];
    list.push({
      id: r.id,
      activity_type: r.code,
      activity_type_name: r.name,
      key: r.kind,
      position: r.position,
      config: r.config,
    });
    out.set(r.processId, list);
  }
  return out;
}

/** True when the actor may edit requirements (ops, or a demo-mode customer). */
export async function mayEditRequirements(tx: Tx, actor: Actor): Promise<boolean> {
  if (actor.customerId === null) return actor.isOps;
  const [c] = await tx
    .select({ demoMode: customers.demoMode })
    .from(customers)
    .where(eq(customers.id, actor.customerId));
  return canEditProcessRequirements({ isOps: actor.isOps, demoMode: c?.demoMode ?? false });
}

/** The extra fields of processes: requirements, case counts, can_edit_requirements. */
export async function augmentProcesses(tx: Tx, actor: Actor, rows: ProcessRow[]) {
  const ids = rows.map((r) => r.id);
  const reqs = await requirementsOf(tx, ids);
  const counts =
    ids.length === 0
      ? []
      : await tx
          .select({ id: cases.processId, n: sql<number>`count(*)::int`.mapWith(Number) })
          .from(cases)
          .where(inArray(cases.processId, ids))
          .groupBy(cases.processId);
  const byId = new Map(counts.map((c) => [c.id, c.n]));
  const canEdit = await mayEditRequirements(tx, actor);
  return rows.map((r) => ({
    requirements: reqs.get(r.id) ?? [],
    can_edit_requirements: canEdit,
    case_count: byId.get(r.id) ?? 0,
  }));
}

/**
 * Replaces a process's requirements. Each activity type must be one the customer may order.
 * Errors name the item: `{"requirements.1.activity_type": [...]}` (`prefix` = `requirements`).
 */
export async function replaceRequirements(
  tx: Tx,
  customerId: number,
  processId: number,
  list: RequirementInput[],
  prefix: string,
): Promise<void> {
  const codes = [...new Set(list.map((r) => r.activity_type))];
  const allowed =
    codes.length === 0
      ? []
      : await tx
          .select({ id: activityTypes.id, code: activityTypes.code })
          .from(activityTypes)
          .innerJoin(
            customerActivityTypes,
            and(
              eq(customerActivityTypes.activityTypeId, activityTypes.id),
              eq(customerActivityTypes.customerId, customerId),
              eq(customerActivityTypes.enabled, true),
            ),
          )
          .where(inArray(activityTypes.code, codes));
  const idOf = new Map(allowed.map((a) => [a.code, a.id]));
  const errors: Record<string, string[]> = {};
  list.forEach((r, i) => {
    if (!isActivityKindCode(r.activity_type) || !idOf.has(r.activity_type)) {
      errors[`${prefix}${i}.activity_type`] = [`Unknown activity type '${r.activity_type}'.`];
    }
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  await tx.delete(processRequirements).where(eq(processRequirements.processId, processId));
  if (list.length === 0) return;
  await tx.insert(processRequirements).values(
    list.map((r, position) => ({
      customerId,
      processId,
      activityTypeId: idOf.get(r.activity_type) ?? 0,
      position,
      config: r.config,
    })),
  );
}

export const KIND_NAMES = Object.fromEntries(
  Object.entries(ACTIVITY_KINDS).map(([code, k]) => [code, k.name]),
);
