import {
  REG_PORTAL_UNAVAILABLE_MESSAGES,
  REGISTRATION_MESSAGES,
  type RegPortalCreate,
  type RegPortalOut,
  type RegPortalPatch,
  type RegPortalUnavailable,
} from '@kestrel/domain';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import {
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
} from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { processes } from '../processes/processes.table.js';
import { segments } from '../segments/segments.table.js';
import { portalRegistrations, registrationPortals } from './regportals.table.js';

export const REG_PORTAL_CT = 'regportals.registrationportal';

export type PortalRow = typeof registrationPortals.$inferSelect;

/** The public link of a portal (the web's route). */
export const publicLinkOf = (p: Pick<PortalRow, 'segmentId' | 'path'>) =>
  `/self-initiate/${p.segmentId}/${p.path}`;

/** The process of the actor's customer (RLS), 404 otherwise. */
export async function findProcess(tx: Tx, id: number) {
  const [p] = await tx.select().from(processes).where(eq(processes.id, id)).limit(1);
  if (!p) throw new NotFoundError();
  return p;
}

/** A portal of the process (RLS: the actor's customer's); 404 otherwise. */
export async function findPortal(
  tx: Tx,
  processId: number,
  id: number,
  forUpdate = false,
): Promise<PortalRow> {
  const q = tx
    .select()
    .from(registrationPortals)
    .where(and(eq(registrationPortals.processId, processId), eq(registrationPortals.id, id)))
    .limit(1);
  const [r] = forUpdate ? await q.for('update') : await q;
  if (!r) throw new NotFoundError();
  return r;
}

/** Registrations that count towards a portal's limit: every one that has not expired. */
export async function liveRegistrationCounts(tx: Tx, ids: number[]) {
  if (ids.length === 0) return new Map<number, number>();
  const rows = await tx
    .select({
      id: portalRegistrations.regPortalId,
      n: sql<number>`count(*)::int`.mapWith(Number),
    })
    .from(portalRegistrations)
    .where(
      and(inArray(portalRegistrations.regPortalId, ids), ne(portalRegistrations.state, 'expired')),
    )
    .groupBy(portalRegistrations.regPortalId);
  return new Map(rows.map((r) => [r.id, r.n]));
}

/** Why a portal takes no registration on `today` (YYYY-MM-DD), or null when it takes one. */
export function unavailableOf(
  p: Pick<PortalRow, 'open' | 'registrationLimit' | 'closesOn'>,
  live: number,
  today: string,
): RegPortalUnavailable | null {
  if (!p.open) return 'closed';
  if (p.closesOn !== null && p.closesOn < today) return 'past_closing_date';
  if (p.registrationLimit !== null && live >= p.registrationLimit) return 'full';
  return null;
}

/** 409 with the portal's reason when it takes no registration. */
export function assertAvailable(reason: RegPortalUnavailable | null): void {
  if (reason) throw new ConflictError(REG_PORTAL_UNAVAILABLE_MESSAGES[reason]);
}

export async function presentPortals(tx: Tx, rows: PortalRow[]): Promise<RegPortalOut[]> {
  if (rows.length === 0) return [];
  const counts = await liveRegistrationCounts(
    tx,
    rows.map((r) => r.id),
  );
  const segs = await tx
    .select({ id: segments.id, name: segments.name })
    .from(segments)
    .where(inArray(segments.id, [...new Set(rows.map((r) => r.segmentId))]));
  return rows.map((r) => ({
    id: r.id,
    process_id: r.processId,
    segment_id: r.segmentId,
    segment_name: segs.find((s) => s.id === r.segmentId)?.name ?? '',
    path: r.path,
    title: r.title,
    introduction: r.introduction,
    payer: r.payer,
    ask_email: r.askEmail,
    ask_dob: r.askDob,
    ask_phone: r.askPhone,
    open: r.open,
    registration_limit: r.registrationLimit,
    closes_on: r.closesOn,
    registration_count: counts.get(r.id) ?? 0,
    public_link: publicLinkOf(r),
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }));
}

async function presentPortal(tx: Tx, row: PortalRow): Promise<RegPortalOut> {
  const [out] = await presentPortals(tx, [row]);
  if (!out) throw new NotFoundError();
  return out;
}

export async function getPortal(ctx: ServiceContext, processId: number, id: number) {
  return presentPortal(ctx.tx, await findPortal(ctx.tx, processId, id));
}

/** A page of a process's portals by title (404 when the process is not the customer's). */
export async function listPortals(
  ctx: ServiceContext,
  processId: number,
  page: { pageSize: number; offset: number },
): Promise<{ count: number; results: RegPortalOut[] }> {
  await findProcess(ctx.tx, processId);
  const where = eq(registrationPortals.processId, processId);
  const [total] = await ctx.tx
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(registrationPortals)
    .where(where);
  const rows = await ctx.tx
    .select()
    .from(registrationPortals)
    .where(where)
    .orderBy(asc(registrationPortals.title), asc(registrationPortals.id))
    .limit(page.pageSize)
    .offset(page.offset);
  return { count: total?.n ?? 0, results: await presentPortals(ctx.tx, rows) };
}

/** The segment must be the customer's (RLS): 400 on segment_id otherwise. */
async function checkSegment(tx: Tx, segmentId: number) {
  const [s] = await tx
    .select({ id: segments.id })
    .from(segments)
    .where(eq(segments.id, segmentId))
    .limit(1);
  if (!s) throw ValidationError.doesNotExist('segment_id', segmentId);
}

/** The path must be free in the segment: 400 on path otherwise. */
async function checkPathFree(tx: Tx, segmentId: number, path: string, except: number | null) {
  const [taken] = await tx
    .select({ id: registrationPortals.id })
    .from(registrationPortals)
    .where(
      and(
        eq(registrationPortals.segmentId, segmentId),
        eq(registrationPortals.path, path),
        except === null ? undefined : ne(registrationPortals.id, except),
      ),
    )
    .limit(1);
  if (taken) throw ValidationError.of('path', REGISTRATION_MESSAGES.pathTaken);
}

export async function createPortal(
  ctx: ServiceContext,
  processId: number,
  data: RegPortalCreate,
): Promise<RegPortalOut> {
  const customerId = ctx.actor.customerId;
  if (customerId === null) throw new PermissionDeniedError();
  const process = await findProcess(ctx.tx, processId);
  await checkSegment(ctx.tx, data.segment_id);
  await checkPathFree(ctx.tx, data.segment_id, data.path, null);
  const now = ctx.clock.now();
  const [row] = await ctx.tx
    .insert(registrationPortals)
    .values({
      customerId,
      processId: process.id,
      segmentId: data.segment_id,
      path: data.path,
      title: data.title,
      introduction: data.introduction,
      payer: data.payer,
      askEmail: data.ask_email,
      askDob: data.ask_dob,
      askPhone: data.ask_phone,
      open: data.open,
      registrationLimit: data.registration_limit,
      closesOn: data.closes_on,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  // a concurrent portal took the path between the check and the insert
  if (!row) throw ValidationError.of('path', REGISTRATION_MESSAGES.pathTaken);
  const out = await presentPortal(ctx.tx, row);
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'created',
    contentType: REG_PORTAL_CT,
    objectId: row.id,
    objectRepr: row.title,
    changes: out,
  });
  return out;
}

export async function updatePortal(
  ctx: ServiceContext,
  processId: number,
  id: number,
  data: RegPortalPatch,
): Promise<RegPortalOut> {
  const existing = await findPortal(ctx.tx, processId, id, true);
  const segmentId = data.segment_id ?? existing.segmentId;
  const path = data.path ?? existing.path;
  if (data.segment_id !== undefined) await checkSegment(ctx.tx, data.segment_id);
  if (segmentId !== existing.segmentId || path !== existing.path) {
    await checkPathFree(ctx.tx, segmentId, path, existing.id);
  }
  const [row] = await ctx.tx
    .update(registrationPortals)
    .set({
      segmentId,
      path,
      ...(data.title !== undefined ? { title: data.title } : {}),
      ...(data.introduction !== undefined ? { introduction: data.introduction } : {}),
      ...(data.payer !== undefined ? { payer: data.payer } : {}),
      ...(data.ask_email !== undefined ? { askEmail: data.ask_email } : {}),
      ...(data.ask_dob !== undefined ? { askDob: data.ask_dob } : {}),
      ...(data.ask_phone !== undefined ? { askPhone: data.ask_phone } : {}),
      ...(data.open !== undefined ? { open: data.open } : {}),
      ...(data.registration_limit !== undefined
        ? { registrationLimit: data.registration_limit }
        : {}),
      ...(data.closes_on !== undefined ? { closesOn: data.closes_on } : {}),
      updatedAt: ctx.clock.now(),
    })
    .where(
      and(eq(registrationPortals.customerId, existing.customerId), eq(registrationPortals.id, id)),
    )
    .returning();
  if (!row) throw new NotFoundError();
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'updated',
    contentType: REG_PORTAL_CT,
    objectId: row.id,
    objectRepr: row.title,
    changes: { ...data },
  });
  return presentPortal(ctx.tx, row);
}

/** Deletes a portal that has no registration (one that has is closed instead): 400 otherwise. */
export async function deletePortal(ctx: ServiceContext, processId: number, id: number) {
  const existing = await findPortal(ctx.tx, processId, id, true);
  const [any] = await ctx.tx
    .select({ id: portalRegistrations.id })
    .from(portalRegistrations)
    .where(eq(portalRegistrations.regPortalId, existing.id))
    .limit(1);
  if (any) throw ValidationError.of('non_field_errors', REGISTRATION_MESSAGES.portalInUse);
  await ctx.tx
    .delete(registrationPortals)
    .where(
      and(eq(registrationPortals.customerId, existing.customerId), eq(registrationPortals.id, id)),
    );
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'deleted',
    contentType: REG_PORTAL_CT,
    objectId: existing.id,
    objectRepr: existing.title,
    changes: {},
  });
}
