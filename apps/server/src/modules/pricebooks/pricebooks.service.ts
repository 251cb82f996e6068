import {
  CHECK_LEVELS,
  type CheckLevel,
  isoDate,
  PRICEBOOK_OVERLAP,
  type PricebookCreate,
  type PricebookOut,
  type PricebookUpdate,
  pricebookActiveOn,
  pricebookRangesOverlap,
  pricePresent,
  type QuoteOut,
  quoteOf,
} from '@kestrel/domain';
import { and, asc, desc, eq, gte, isNull, lte, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { customers } from '../customers/customers.table.js';
import { processes, processRequirements } from '../processes/processes.table.js';
import { pricebookPrices, pricebooks } from './pricebooks.table.js';

export const PRICEBOOK_CT = 'pricebooks.pricebook';

type PricebookRow = typeof pricebooks.$inferSelect;
type PriceRow = { activity_type: string; level: CheckLevel | null; amount_pence: number };

const levelOf = (stored: string): CheckLevel | null =>
  CHECK_LEVELS.find((l) => l === stored) ?? null;

async function pricesOf(
  tx: Tx,
  customerId: number,
  ids: number[],
): Promise<Map<number, PriceRow[]>> {
  const out = new Map<number, PriceRow[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await tx
    .select()
    .from(pricebookPrices)
    .where(eq(pricebookPrices.customerId, customerId))
    .orderBy(asc(pricebookPrices.activityType), asc(pricebookPrices.level));
  for (const r of rows) {
    out.get(r.pricebookId)?.push({
      activity_type: r.activityType,
      level: levelOf(r.level),
      amount_pence: r.amountPence,
    });
  }
  return out;
}

function present(row: PricebookRow, prices: PriceRow[], today: string): PricebookOut {
  return {
    id: row.id,
    customer_id: row.customerId,
    name: row.name,
    valid_from: row.validFrom,
    valid_to: row.validTo,
    active: pricebookActiveOn({ valid_from: row.validFrom, valid_to: row.validTo }, today),
    created_at: row.createdAt.toISOString(),
    created_by_name: row.createdByName,
    prices: prices.map(pricePresent),
    invoiced: row.invoiced,
  };
}

const todayOf = (ctx: Pick<ServiceContext, 'clock'>) => isoDate(ctx.clock.now());

async function requireCustomer(tx: Tx, customerId: number): Promise<void> {
  const [c] = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.id, customerId));
  if (!c) throw new NotFoundError();
}

/** A customer's pricebooks, the latest start first. */
export async function listPricebooks(
  ctx: ServiceContext,
  customerId: number,
): Promise<PricebookOut[]> {
  await requireCustomer(ctx.tx, customerId);
  const rows = await ctx.tx
    .select()
    .from(pricebooks)
    .where(eq(pricebooks.customerId, customerId))
    .orderBy(desc(pricebooks.validFrom));
  const prices = await pricesOf(
    ctx.tx,
    customerId,
    rows.map((r) => r.id),
  );
  const today = todayOf(ctx);
  return rows.map((r) => present(r, prices.get(r.id) ?? [], today));
}

async function findPricebook(tx: Tx, customerId: number, id: number): Promise<PricebookRow> {
  const [row] = await tx
    .select()
    .from(pricebooks)
    .where(and(eq(pricebooks.customerId, customerId), eq(pricebooks.id, id)));
  if (!row) throw new NotFoundError();
  return row;
}

export async function getPricebook(
  ctx: ServiceContext,
  customerId: number,
  id: number,
): Promise<PricebookOut> {
  const row = await findPricebook(ctx.tx, customerId, id);
  const prices = await pricesOf(ctx.tx, customerId, [id]);
  return present(row, prices.get(id) ?? [], todayOf(ctx));
}

/**
 * One active pricebook per customer: under a per-customer lock (held to the transaction's end,
 * so two concurrent creations queue), no other of its pricebooks may share a day with the range.
 */
async function refuseOverlap(
  tx: Tx,
  customerId: number,
  range: { valid_from: string; valid_to: string | null },
  except: number | null,
): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('pricebooks'), ${customerId})`);
  const others = await tx
    .select({ id: pricebooks.id, from: pricebooks.validFrom, to: pricebooks.validTo })
    .from(pricebooks)
    .where(eq(pricebooks.customerId, customerId));
  const clash = others.some(
    (o) => o.id !== except && pricebookRangesOverlap(range, { valid_from: o.from, valid_to: o.to }),
  );
  if (clash) throw new ValidationError({ valid_from: [PRICEBOOK_OVERLAP] });
}

async function writePrices(
  tx: Tx,
  customerId: number,
  pricebookId: number,
  prices: PricebookCreate['prices'],
): Promise<void> {
  await tx
    .delete(pricebookPrices)
    .where(
      and(eq(pricebookPrices.customerId, customerId), eq(pricebookPrices.pricebookId, pricebookId)),
    );
  if (prices.length === 0) return;
  await tx.insert(pricebookPrices).values(
    prices.map((p) => ({
      customerId,
      pricebookId,
      activityType: p.activity_type,
      level: p.level ?? '',
      amountPence: p.amount_pence,
    })),
  );
}

export async function createPricebook(
  ctx: ServiceContext,
  customerId: number,
  body: PricebookCreate,
): Promise<PricebookOut> {
  await requireCustomer(ctx.tx, customerId);
  await refuseOverlap(ctx.tx, customerId, body, null);
  const [row] = await ctx.tx
    .insert(pricebooks)
    .values({
      customerId,
      name: body.name,
      validFrom: body.valid_from,
      validTo: body.valid_to,
      invoiced: body.invoiced ?? false,
      createdById: ctx.actor.id,
      createdByName: ctx.actor.name,
    })
    .returning();
  if (!row) throw new Error('insert returned nothing');
  await writePrices(ctx.tx, customerId, row.id, body.prices);
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'created',
    contentType: PRICEBOOK_CT,
    objectId: row.id,
    objectRepr: row.name,
    changes: {},
    customerId,
  });
  return getPricebook(ctx, customerId, row.id);
}

export async function updatePricebook(
  ctx: ServiceContext,
  customerId: number,
  id: number,
  body: PricebookUpdate,
): Promise<PricebookOut> {
  const existing = await findPricebook(ctx.tx, customerId, id);
  const range = {
    valid_from: body.valid_from ?? existing.validFrom,
    valid_to: body.valid_to === undefined ? existing.validTo : body.valid_to,
  };
  if (range.valid_to !== null && range.valid_to < range.valid_from) {
    throw new ValidationError({ valid_to: ['The end date must not be before the start date.'] });
  }
  await refuseOverlap(ctx.tx, customerId, range, id);
  await ctx.tx
    .update(pricebooks)
    .set({
      name: body.name ?? existing.name,
      validFrom: range.valid_from,
      validTo: range.valid_to,
      invoiced: body.invoiced ?? existing.invoiced,
    })
    .where(and(eq(pricebooks.customerId, customerId), eq(pricebooks.id, id)));
  if (body.prices) await writePrices(ctx.tx, customerId, id, body.prices);
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'updated',
    contentType: PRICEBOOK_CT,
    objectId: id,
    objectRepr: body.name ?? existing.name,
    changes: {
      ...(range.valid_from !== existing.validFrom
        ? { valid_from: [existing.validFrom, range.valid_from] }
        : {}),
      ...(range.valid_to !== existing.validTo
        ? { valid_to: [existing.validTo, range.valid_to] }
        : {}),
      ...(body.prices ? { prices: [null, body.prices.length] } : {}),
      ...(body.invoiced !== undefined && body.invoiced !== existing.invoiced
        ? { invoiced: [existing.invoiced, body.invoiced] }
        : {}),
    },
    customerId,
  });
  return getPricebook(ctx, customerId, id);
}

/**
 * The prices of a customer's pricebook active on `day` (null when none is: the checks then use
 * the default price list). Runs in any context that reads the customer's rows.
 */
export async function activePrices(
  tx: Tx,
  customerId: number,
  day: string,
): Promise<{ pricebookId: number; prices: PriceRow[] } | null> {
  const [row] = await tx
    .select({ id: pricebooks.id })
    .from(pricebooks)
    .where(
      and(
        eq(pricebooks.customerId, customerId),
        lte(pricebooks.validFrom, day),
        or(isNull(pricebooks.validTo), gte(pricebooks.validTo, day)),
      ),
    )
    .limit(1);
  if (!row) return null;
  const prices = await pricesOf(tx, customerId, [row.id]);
  return { pricebookId: row.id, prices: prices.get(row.id) ?? [] };
}

/** What a case of `processId` will cost, from the customer's active pricebook. */
export async function quoteProcess(
  ctx: ServiceContext,
  customerId: number,
  processId: number,
): Promise<QuoteOut> {
  const [p] = await ctx.tx
    .select({ id: processes.id })
    .from(processes)
    .where(and(eq(processes.customerId, customerId), eq(processes.id, processId)));
  if (!p) throw new NotFoundError();
  const reqs = await ctx.tx
    .select({
      code: activityTypes.code,
      name: activityTypes.name,
      config: processRequirements.config,
    })
    .from(processRequirements)
    .innerJoin(activityTypes, eq(activityTypes.id, processRequirements.activityTypeId))
    .where(
      and(
        eq(processRequirements.customerId, customerId),
        eq(processRequirements.processId, processId),
      ),
    )
    .orderBy(asc(processRequirements.position), asc(processRequirements.id));
  const active = await activePrices(ctx.tx, customerId, todayOf(ctx));
  return quoteOf(
    processId,
    active?.pricebookId ?? null,
    active?.prices ?? [],
    reqs.map((r) => ({
      code: r.code,
      name: r.name,
      config: r.config,
    })),
  );
}
