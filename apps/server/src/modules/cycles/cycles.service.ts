import {
  CYCLE_IN_USE,
  type CycleCreate,
  type CycleOut,
  type CycleUpdate,
  cycleTexts,
  formatPence,
  isActivityKindCode,
  isoDate,
  quoteOf,
} from '@kestrel/domain';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { customerActivityTypes } from '../customers/customers.table.js';
import { activePrices } from '../pricebooks/pricebooks.service.js';
import { processes, processRequirements } from '../processes/processes.table.js';
import { cycles, subscriptions } from './cycles.table.js';

export const CYCLE_CT = 'cycles.cycle';

export type CycleRow = typeof cycles.$inferSelect;
type ProcessRow = typeof processes.$inferSelect;

/** The process of the actor's customer (RLS), for update when it will change; 404 otherwise. */
export async function findProcess(tx: Tx, id: number): Promise<ProcessRow> {
  const [p] = await tx.select().from(processes).where(eq(processes.id, id)).limit(1);
  if (!p) throw new NotFoundError();
  return p;
}

/** A cycle of the process (RLS: the actor's customer's); 404 otherwise. */
export async function findCycle(
  tx: Tx,
  processId: number | null,
  id: number,
  forUpdate = false,
): Promise<CycleRow> {
  const q = tx
    .select()
    .from(cycles)
    .where(
      processId === null
        ? eq(cycles.id, id)
        : and(eq(cycles.processId, processId), eq(cycles.id, id)),
    )
    .limit(1);
  const [c] = forUpdate ? await q.for('update') : await q;
  if (!c) throw new NotFoundError();
  return c;
}

/**
 * Each requirement must be an activity type the customer may order (as a process's
 * requirements): `{"requirements.0": ["Unknown activity type 'x'."]}` otherwise.
 */
export async function checkRequirements(
  tx: Tx,
  customerId: number,
  codes: readonly string[],
): Promise<void> {
  const allowed =
    codes.length === 0
      ? []
      : await tx
          .select({ code: activityTypes.code })
          .from(activityTypes)
          .innerJoin(
            customerActivityTypes,
            and(
              eq(customerActivityTypes.activityTypeId, activityTypes.id),
              eq(customerActivityTypes.customerId, customerId),
              eq(customerActivityTypes.enabled, true),
            ),
          )
          .where(inArray(activityTypes.code, [...codes]));
  const known = new Set(allowed.map((a) => a.code));
  const errors: Record<string, string[]> = {};
  codes.forEach((code, i) => {
    if (!isActivityKindCode(code) || !known.has(code)) {
      errors[`requirements.${i}`] = [`Unknown activity type '${code}'.`];
    }
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/**
 * The checks a cycle's case runs: its requirement codes in order, each with the configuration
 * the process gives that activity type (its first requirement of it), else none.
 */
export async function cycleChecks(
  tx: Tx,
  cycle: Pick<CycleRow, 'processId' | 'requirements'>,
): Promise<
  { code: string; name: string; activityTypeId: number; config: Record<string, unknown> }[]
> {
  if (cycle.requirements.length === 0) return [];
  const types = await tx
    .select({ id: activityTypes.id, code: activityTypes.code, name: activityTypes.name })
    .from(activityTypes)
    .where(inArray(activityTypes.code, cycle.requirements));
  const reqs = await tx
    .select({
      activityTypeId: processRequirements.activityTypeId,
      config: processRequirements.config,
    })
    .from(processRequirements)
    .where(eq(processRequirements.processId, cycle.processId))
    .orderBy(asc(processRequirements.position), asc(processRequirements.id));
  const out = [];
  for (const code of cycle.requirements) {
    const t = types.find((x) => x.code === code);
    if (!t) continue;
    const config = reqs.find((r) => r.activityTypeId === t.id)?.config ?? {};
    out.push({ code, name: t.name, activityTypeId: t.id, config: { ...config } });
  }
  return out;
}

/** A cycle's price per billing period: its requirements' prices in the pricebook in force. */
export async function quoteCycle(
  tx: Tx,
  customerId: number,
  day: Date,
  cycle: Pick<CycleRow, 'processId' | 'requirements'>,
) {
  const active = await activePrices(tx, customerId, isoDate(day));
  const checks = await cycleChecks(tx, cycle);
  return quoteOf(cycle.processId, active?.pricebookId ?? null, active?.prices ?? [], checks);
}

/** The cycles as the API shows them (price, texts, open subscriptions), in one pass. */
export async function presentCycles(ctx: ServiceContext, rows: CycleRow[]): Promise<CycleOut[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const counts = await ctx.tx
    .select({ id: subscriptions.cycleId, n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(subscriptions)
    .where(and(inArray(subscriptions.cycleId, ids), ne(subscriptions.state, 'ended')))
    .groupBy(subscriptions.cycleId);
  const names = await ctx.tx
    .select({ id: processes.id, name: processes.name })
    .from(processes)
    .where(inArray(processes.id, [...new Set(rows.map((r) => r.processId))]));
  const now = ctx.clock.now();
  const out: CycleOut[] = [];
  for (const r of rows) {
    const quote = await quoteCycle(ctx.tx, r.customerId, now, r);
    out.push({
      id: r.id,
      process: r.processId,
      process_name: names.find((p) => p.id === r.processId)?.name ?? '',
      name: r.name,
      requirements: r.requirements,
      repeat_interval: r.repeatInterval,
      repeat_unit: r.repeatUnit,
      billing_interval: r.billingInterval,
      billing_triggered: r.billingTriggered,
      ...cycleTexts({
        repeat_interval: r.repeatInterval,
        repeat_unit: r.repeatUnit,
        billing_interval: r.billingInterval,
        billing_triggered: r.billingTriggered,
      }),
      price_pence: quote.total_pence,
      price_display: formatPence(quote.total_pence),
      price_incomplete: quote.incomplete,
      is_active: r.isActive,
      subscription_count: counts.find((c) => c.id === r.id)?.n ?? 0,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    });
  }
  return out;
}

export async function presentCycle(ctx: ServiceContext, row: CycleRow): Promise<CycleOut> {
  const [out] = await presentCycles(ctx, [row]);
  if (!out) throw new NotFoundError();
  return out;
}

/**
 * A page of cycles by name: a process's (404 when not the customer's), or every process's
 * (`processId` null: the pickers of the subscribe screens), active ones only when `activeOnly`.
 */
export async function listCycles(
  ctx: ServiceContext,
  processId: number | null,
  page: { pageSize: number; offset: number },
  activeOnly = false,
): Promise<{ count: number; results: CycleOut[] }> {
  if (processId !== null) await findProcess(ctx.tx, processId);
  const where = and(
    processId === null ? undefined : eq(cycles.processId, processId),
    activeOnly ? eq(cycles.isActive, true) : undefined,
  );
  const [total] = await ctx.tx
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(cycles)
    .where(where);
  const rows = await ctx.tx
    .select()
    .from(cycles)
    .where(where)
    .orderBy(asc(cycles.name), asc(cycles.id))
    .limit(page.pageSize)
    .offset(page.offset);
  return { count: total?.n ?? 0, results: await presentCycles(ctx, rows) };
}

export async function createCycle(
  ctx: ServiceContext,
  processId: number,
  data: CycleCreate,
): Promise<CycleOut> {
  const customerId = ctx.actor.customerId;
  if (customerId === null) throw new PermissionDeniedError();
  const process = await findProcess(ctx.tx, processId);
  await checkRequirements(ctx.tx, customerId, data.requirements);
  const now = ctx.clock.now();
  const [row] = await ctx.tx
    .insert(cycles)
    .values({
      customerId,
      processId: process.id,
      name: data.name,
      requirements: data.requirements,
      repeatInterval: data.repeat_interval,
      repeatUnit: data.repeat_unit,
      billingInterval: data.billing_interval,
      billingTriggered: data.billing_triggered,
      isActive: data.is_active,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new NotFoundError();
  const out = await presentCycle(ctx, row);
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'created',
    contentType: CYCLE_CT,
    objectId: row.id,
    objectRepr: row.name,
    changes: out,
  });
  return out;
}

export async function updateCycle(
  ctx: ServiceContext,
  processId: number,
  id: number,
  data: Partial<CycleUpdate>,
): Promise<CycleOut> {
  const existing = await findCycle(ctx.tx, processId, id, true);
  if (data.requirements !== undefined) {
    await checkRequirements(ctx.tx, existing.customerId, data.requirements);
  }
  const [row] = await ctx.tx
    .update(cycles)
    .set({
      ...(data.name !== undefined ? { name: data.name } : {}),
      ...(data.requirements !== undefined ? { requirements: data.requirements } : {}),
      ...(data.repeat_interval !== undefined ? { repeatInterval: data.repeat_interval } : {}),
      ...(data.repeat_unit !== undefined ? { repeatUnit: data.repeat_unit } : {}),
      ...(data.billing_interval !== undefined ? { billingInterval: data.billing_interval } : {}),
      ...(data.billing_triggered !== undefined ? { billingTriggered: data.billing_triggered } : {}),
      ...(data.is_active !== undefined ? { isActive: data.is_active } : {}),
      updatedAt: ctx.clock.now(),
    })
    .where(eq(cycles.id, existing.id))
    .returning();
  if (!row) throw new NotFoundError();
  const changes: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) changes[k] = v;
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'updated',
    contentType: CYCLE_CT,
    objectId: row.id,
    objectRepr: row.name,
    changes,
  });
  return presentCycle(ctx, row);
}

/** Deletes a cycle with no open (active or paused) subscription: 400 otherwise. */
export async function deleteCycle(ctx: ServiceContext, processId: number, id: number) {
  const existing = await findCycle(ctx.tx, processId, id, true);
  const [open] = await ctx.tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.cycleId, existing.id), ne(subscriptions.state, 'ended')))
    .limit(1);
  if (open) throw ValidationError.of('non_field_errors', CYCLE_IN_USE);
  // ended subscriptions keep their history only as long as their cycle: they go with it
  await ctx.tx.delete(subscriptions).where(eq(subscriptions.cycleId, existing.id));
  await ctx.tx.delete(cycles).where(eq(cycles.id, existing.id));
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'deleted',
    contentType: CYCLE_CT,
    objectId: existing.id,
    objectRepr: existing.name,
    changes: {},
  });
}
