import {
  APPLICATION_KIND_LABELS,
  type ApplicationPortalCreate,
  type ApplicationPortalOut,
  type ApplicationPortalUpdate,
  CASE_ACTIVITY_STATE_LABELS,
  certificateStatusMeaning,
  DEFAULT_LICENCE_NUMBER_FORMAT,
  formatLicenceNumber,
  formatPence,
  isCaseActivityState,
  isoDate,
  LICENCE_NUMBER_TAKEN,
  LICENCE_STATUS_LABELS,
  type LicenceAction,
  type LicenceCreate,
  type LicenceDefinitionCreate,
  type LicenceDefinitionOut,
  type LicenceDefinitionUpdate,
  type LicenceGroupCreate,
  type LicenceGroupOut,
  type LicenceGroupUpdate,
  type LicenceOut,
  type LicenceRequirementConfigInput,
  type LicenceStatus,
  type LicenceSubGroupCreate,
  type LicenceSubGroupOut,
  type LicenceSubGroupUpdate,
  type LicenceUpdateCheckOut,
  licenceActionRefused,
  licenceActionsFor,
  licenceDurationText,
  licenceExpiryDate,
  licenceTransition,
  requirementConfigFields,
  requirementSettingNotUsed,
  setRequirementFields,
} from '@kestrel/domain';
import { and, asc, desc, eq, inArray, max, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { licenceUpdateChecks } from './licence-update-checks.table.js';
import {
  licenceDefinitions,
  licenceEvents,
  licenceGroups,
  licenceSubGroups,
  licences,
  lmsApplicationPortals,
} from './lms.table.js';

export const GROUP_CT = 'lms_definitions.licencegroup';
export const SUB_GROUP_CT = 'lms_definitions.licencesubgroup';
export const DEFINITION_CT = 'lms_definitions.definition';
export const PORTAL_CT = 'lms_definitions.applicationportal';
export const LICENCE_CT = 'lms_licences.licence';

type GroupRow = typeof licenceGroups.$inferSelect;
type SubGroupRow = typeof licenceSubGroups.$inferSelect;
type DefinitionRow = typeof licenceDefinitions.$inferSelect;
type PortalRow = typeof lmsApplicationPortals.$inferSelect;
type LicenceRow = typeof licences.$inferSelect;
type Page = { pageSize: number; offset: number };
type Paged<T> = { count: number; results: T[] };

const iso = (d: Date) => d.toISOString();
const countOf = sql<number>`count(*)::int`.mapWith(Number);

function customerOf(ctx: ServiceContext): number {
  const id = ctx.actor.customerId;
  if (id === null) throw new PermissionDeniedError();
  return id;
}

async function one<T>(rows: Promise<T[]>): Promise<T> {
  const [row] = await rows;
  if (!row) throw new NotFoundError();
  return row;
}

async function paged<T>(
  count: Promise<{ n: number }[]>,
  rows: Promise<T[]>,
): Promise<{ count: number; rows: T[] }> {
  const [[total], list] = await Promise.all([count, rows]);
  return { count: total?.n ?? 0, rows: list };
}

// ---- Groups ----

export const findGroup = (tx: Tx, id: number) =>
  one(tx.select().from(licenceGroups).where(eq(licenceGroups.id, id)).limit(1));

async function presentGroups(tx: Tx, rows: GroupRow[]): Promise<LicenceGroupOut[]> {
  const ids = rows.map((r) => r.id);
  const subs = ids.length
    ? await tx
        .select({ id: licenceSubGroups.groupId, n: countOf })
        .from(licenceSubGroups)
        .where(inArray(licenceSubGroups.groupId, ids))
        .groupBy(licenceSubGroups.groupId)
    : [];
  const lics = ids.length
    ? await tx
        .select({ id: licenceSubGroups.groupId, n: countOf })
        .from(licences)
        .innerJoin(licenceDefinitions, eq(licenceDefinitions.id, licences.definitionId))
        .innerJoin(licenceSubGroups, eq(licenceSubGroups.id, licenceDefinitions.subGroupId))
        .where(inArray(licenceSubGroups.groupId, ids))
        .groupBy(licenceSubGroups.groupId)
    : [];
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    is_published: r.isPublished,
    sub_group_count: subs.find((s) => s.id === r.id)?.n ?? 0,
    licence_count: lics.find((s) => s.id === r.id)?.n ?? 0,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  }));
}

export async function presentGroup(ctx: ServiceContext, row: GroupRow): Promise<LicenceGroupOut> {
  const [out] = await presentGroups(ctx.tx, [row]);
  if (!out) throw new NotFoundError();
  return out;
}

export async function listGroups(ctx: ServiceContext, page: Page): Promise<Paged<LicenceGroupOut>> {
  const { count, rows } = await paged(
    ctx.tx.select({ n: countOf }).from(licenceGroups),
    ctx.tx
      .select()
      .from(licenceGroups)
      .orderBy(asc(licenceGroups.name), asc(licenceGroups.id))
      .limit(page.pageSize)
      .offset(page.offset),
  );
  return { count, results: await presentGroups(ctx.tx, rows) };
}

export async function createGroup(
  ctx: ServiceContext,
  data: LicenceGroupCreate,
): Promise<LicenceGroupOut> {
  const now = ctx.clock.now();
  const row = await one(
    ctx.tx
      .insert(licenceGroups)
      .values({
        customerId: customerOf(ctx),
        name: data.name,
        description: data.description,
        isPublished: data.is_published,
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
  );
  const out = await presentGroup(ctx, row);
  await audit(ctx, 'created', GROUP_CT, row.id, row.name, out);
  return out;
}

export async function updateGroup(
  ctx: ServiceContext,
  id: number,
  data: Partial<LicenceGroupUpdate>,
): Promise<LicenceGroupOut> {
  await findGroup(ctx.tx, id);
  const row = await one(
    ctx.tx
      .update(licenceGroups)
      .set({
        name: data.name,
        description: data.description,
        isPublished: data.is_published,
        updatedAt: ctx.clock.now(),
      })
      .where(eq(licenceGroups.id, id))
      .returning(),
  );
  await audit(ctx, 'updated', GROUP_CT, id, row.name, data);
  return presentGroup(ctx, row);
}

// ---- Sub-groups ----

export const findSubGroup = (tx: Tx, id: number) =>
  one(tx.select().from(licenceSubGroups).where(eq(licenceSubGroups.id, id)).limit(1));

async function presentSubGroups(tx: Tx, rows: SubGroupRow[]): Promise<LicenceSubGroupOut[]> {
  const ids = rows.map((r) => r.id);
  const groupIds = [...new Set(rows.map((r) => r.groupId))];
  const groups = groupIds.length
    ? await tx.select().from(licenceGroups).where(inArray(licenceGroups.id, groupIds))
    : [];
  const defs = ids.length
    ? await tx
        .select({ id: licenceDefinitions.subGroupId, n: countOf })
        .from(licenceDefinitions)
        .where(inArray(licenceDefinitions.subGroupId, ids))
        .groupBy(licenceDefinitions.subGroupId)
    : [];
  return rows.map((r) => ({
    id: r.id,
    group: r.groupId,
    group_name: groups.find((g) => g.id === r.groupId)?.name ?? '',
    name: r.name,
    code: r.code,
    description: r.description,
    is_published: r.isPublished,
    definition_count: defs.find((d) => d.id === r.id)?.n ?? 0,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  }));
}

export async function presentSubGroup(
  ctx: ServiceContext,
  row: SubGroupRow,
): Promise<LicenceSubGroupOut> {
  const [out] = await presentSubGroups(ctx.tx, [row]);
  if (!out) throw new NotFoundError();
  return out;
}

export async function listSubGroups(
  ctx: ServiceContext,
  page: Page,
  groupId: number | null,
): Promise<Paged<LicenceSubGroupOut>> {
  const where = groupId === null ? undefined : eq(licenceSubGroups.groupId, groupId);
  const { count, rows } = await paged(
    ctx.tx.select({ n: countOf }).from(licenceSubGroups).where(where),
    ctx.tx
      .select()
      .from(licenceSubGroups)
      .where(where)
      .orderBy(asc(licenceSubGroups.name), asc(licenceSubGroups.id))
      .limit(page.pageSize)
      .offset(page.offset),
  );
  return { count, results: await presentSubGroups(ctx.tx, rows) };
}

export async function createSubGroup(
  ctx: ServiceContext,
  data: LicenceSubGroupCreate,
): Promise<LicenceSubGroupOut> {
  const group = await findGroup(ctx.tx, data.group).catch(() => {
    throw new ValidationError({ group: ['Invalid pk - object does not exist.'] });
  });
  const now = ctx.clock.now();
  const row = await one(
    ctx.tx
      .insert(licenceSubGroups)
      .values({
        customerId: customerOf(ctx),
        groupId: group.id,
        name: data.name,
        code: data.code,
        description: data.description,
        isPublished: data.is_published,
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
  );
  const out = await presentSubGroup(ctx, row);
  await audit(ctx, 'created', SUB_GROUP_CT, row.id, row.name, out);
  return out;
}

export async function updateSubGroup(
  ctx: ServiceContext,
  id: number,
  data: Partial<LicenceSubGroupUpdate>,
): Promise<LicenceSubGroupOut> {
  await findSubGroup(ctx.tx, id);
  const row = await one(
    ctx.tx
      .update(licenceSubGroups)
      .set({
        name: data.name,
        code: data.code,
        description: data.description,
        isPublished: data.is_published,
        updatedAt: ctx.clock.now(),
      })
      .where(eq(licenceSubGroups.id, id))
      .returning(),
  );
  await audit(ctx, 'updated', SUB_GROUP_CT, id, row.name, data);
  return presentSubGroup(ctx, row);
}

// ---- Definitions ----

export const findDefinition = (tx: Tx, id: number) =>
  one(tx.select().from(licenceDefinitions).where(eq(licenceDefinitions.id, id)).limit(1));

async function presentDefinitions(tx: Tx, rows: DefinitionRow[]): Promise<LicenceDefinitionOut[]> {
  const subs = await presentSubGroups(
    tx,
    rows.length
      ? await tx
          .select()
          .from(licenceSubGroups)
          .where(inArray(licenceSubGroups.id, [...new Set(rows.map((r) => r.subGroupId))]))
      : [],
  );
  const codes = [...new Set(rows.flatMap((r) => r.requirements.map((q) => q.activity_type)))];
  const types = codes.length
    ? await tx
        .select({ code: activityTypes.code, name: activityTypes.name })
        .from(activityTypes)
        .where(inArray(activityTypes.code, codes))
    : [];
  const ids = rows.map((r) => r.id);
  const portals = ids.length
    ? await tx
        .select({ id: lmsApplicationPortals.definitionId, n: countOf })
        .from(lmsApplicationPortals)
        .where(inArray(lmsApplicationPortals.definitionId, ids))
        .groupBy(lmsApplicationPortals.definitionId)
    : [];
  return rows.map((r) => {
    const sub = subs.find((s) => s.id === r.subGroupId);
    return {
      id: r.id,
      sub_group: r.subGroupId,
      sub_group_name: sub?.name ?? '',
      group: sub?.group ?? 0,
      group_name: sub?.group_name ?? '',
      name: r.name,
      description: r.description,
      duration_years: r.durationYears,
      duration_text: licenceDurationText(r.durationYears),
      fee_pence: r.feePence,
      fee_display: formatPence(r.feePence),
      requirements: r.requirements.map((q) => ({
        activity_type: q.activity_type,
        activity_name: types.find((t) => t.code === q.activity_type)?.name ?? q.activity_type,
        config: { ...q.config },
      })),
      documents: r.documents,
      declarations: r.declarations,
      is_published: r.isPublished,
      portal_count: portals.find((p) => p.id === r.id)?.n ?? 0,
      created_at: iso(r.createdAt),
      updated_at: iso(r.updatedAt),
    };
  });
}

export async function presentDefinition(
  ctx: ServiceContext,
  row: DefinitionRow,
): Promise<LicenceDefinitionOut> {
  const [out] = await presentDefinitions(ctx.tx, [row]);
  if (!out) throw new NotFoundError();
  return out;
}

export async function listDefinitions(
  ctx: ServiceContext,
  page: Page,
  subGroupId: number | null,
): Promise<Paged<LicenceDefinitionOut>> {
  const where = subGroupId === null ? undefined : eq(licenceDefinitions.subGroupId, subGroupId);
  const { count, rows } = await paged(
    ctx.tx.select({ n: countOf }).from(licenceDefinitions).where(where),
    ctx.tx
      .select()
      .from(licenceDefinitions)
      .where(where)
      .orderBy(asc(licenceDefinitions.name), asc(licenceDefinitions.id))
      .limit(page.pageSize)
      .offset(page.offset),
  );
  return { count, results: await presentDefinitions(ctx.tx, rows) };
}

async function checkRequirementCodes(tx: Tx, codes: string[]): Promise<void> {
  const known = codes.length
    ? await tx
        .select({ code: activityTypes.code })
        .from(activityTypes)
        .where(inArray(activityTypes.code, codes))
    : [];
  const errors: Record<string, string[]> = {};
  codes.forEach((code, i) => {
    if (!known.some((k) => k.code === code)) {
      errors[`requirements.${i}`] = [`Unknown activity type '${code}'.`];
    }
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

export async function createDefinition(
  ctx: ServiceContext,
  data: LicenceDefinitionCreate,
): Promise<LicenceDefinitionOut> {
  const sub = await findSubGroup(ctx.tx, data.sub_group).catch(() => {
    throw new ValidationError({ sub_group: ['Invalid pk - object does not exist.'] });
  });
  await checkRequirementCodes(
    ctx.tx,
    data.requirements.map((q) => q.activity_type),
  );
  const now = ctx.clock.now();
  const row = await one(
    ctx.tx
      .insert(licenceDefinitions)
      .values({
        customerId: customerOf(ctx),
        subGroupId: sub.id,
        name: data.name,
        description: data.description,
        durationYears: data.duration_years,
        feePence: data.fee_pence,
        requirements: data.requirements,
        documents: data.documents,
        declarations: data.declarations,
        isPublished: data.is_published,
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
  );
  const out = await presentDefinition(ctx, row);
  await audit(ctx, 'created', DEFINITION_CT, row.id, row.name, out);
  return out;
}

export async function updateDefinition(
  ctx: ServiceContext,
  id: number,
  data: Partial<LicenceDefinitionUpdate>,
): Promise<LicenceDefinitionOut> {
  await findDefinition(ctx.tx, id);
  if (data.requirements) {
    await checkRequirementCodes(
      ctx.tx,
      data.requirements.map((q) => q.activity_type),
    );
  }
  const row = await one(
    ctx.tx
      .update(licenceDefinitions)
      .set({
        name: data.name,
        description: data.description,
        durationYears: data.duration_years,
        feePence: data.fee_pence,
        requirements: data.requirements,
        documents: data.documents,
        declarations: data.declarations,
        isPublished: data.is_published,
        updatedAt: ctx.clock.now(),
      })
      .where(eq(licenceDefinitions.id, id))
      .returning(),
  );
  await audit(ctx, 'updated', DEFINITION_CT, id, row.name, data);
  return presentDefinition(ctx, row);
}

/**
 * One check's configuration of a licence (issue 32), replaced whole: the settings its kind takes
 * (spec point 3's), anything else 400 on `config.{field}`; a check the licence does not require
 * is 404. The definition's row is locked, so two edits of its checks both stay. Audited with
 * the configuration before and after; applications opened later run their checks with it.
 */
export async function updateRequirementConfig(
  ctx: ServiceContext,
  id: number,
  activityType: string,
  data: LicenceRequirementConfigInput,
): Promise<LicenceDefinitionOut> {
  const [def] = await ctx.tx
    .select()
    .from(licenceDefinitions)
    .where(eq(licenceDefinitions.id, id))
    .for('update');
  if (!def) throw new NotFoundError();
  const held = def.requirements.find((q) => q.activity_type === activityType);
  if (!held) throw new NotFoundError();
  const allowed = requirementConfigFields(activityType);
  const refused = setRequirementFields(data.config).filter((f) => !allowed.includes(f));
  if (refused.length > 0) {
    const [type] = await ctx.tx
      .select({ name: activityTypes.name })
      .from(activityTypes)
      .where(eq(activityTypes.code, activityType));
    const message = requirementSettingNotUsed(type?.name ?? activityType);
    throw new ValidationError(Object.fromEntries(refused.map((f) => [`config.${f}`, [message]])));
  }
  // only what is set is kept: a cleared setting is absent, as on a new check
  const config = Object.fromEntries(
    setRequirementFields(data.config).map((f) => [f, data.config[f]]),
  );
  const requirements = def.requirements.map((q) =>
    q.activity_type === activityType ? { activity_type: q.activity_type, config } : q,
  );
  const row = await one(
    ctx.tx
      .update(licenceDefinitions)
      .set({ requirements, updatedAt: ctx.clock.now() })
      .where(eq(licenceDefinitions.id, id))
      .returning(),
  );
  await audit(ctx, 'updated', DEFINITION_CT, id, row.name, {
    requirement: activityType,
    config: { from: held.config, to: config },
  });
  return presentDefinition(ctx, row);
}

// ---- Application portals ----

async function presentPortals(tx: Tx, rows: PortalRow[]): Promise<ApplicationPortalOut[]> {
  const defIds = [...new Set(rows.map((r) => r.definitionId))];
  const defs = defIds.length
    ? await tx
        .select({ id: licenceDefinitions.id, name: licenceDefinitions.name })
        .from(licenceDefinitions)
        .where(inArray(licenceDefinitions.id, defIds))
    : [];
  return rows.map((r) => ({
    id: r.id,
    definition: r.definitionId,
    definition_name: defs.find((d) => d.id === r.definitionId)?.name ?? '',
    title: r.title,
    introduction: r.introduction,
    is_open: r.isOpen,
    kind: r.kind,
    kind_label: APPLICATION_KIND_LABELS[r.kind],
    fee_pence: r.feePence,
    fee_display: formatPence(r.feePence),
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  }));
}

async function presentPortal(tx: Tx, row: PortalRow): Promise<ApplicationPortalOut> {
  const [out] = await presentPortals(tx, [row]);
  if (!out) throw new NotFoundError();
  return out;
}

export async function getPortal(
  ctx: ServiceContext,
  definitionId: number,
  id: number,
): Promise<ApplicationPortalOut> {
  await findDefinition(ctx.tx, definitionId);
  const row = await one(
    ctx.tx
      .select()
      .from(lmsApplicationPortals)
      .where(
        and(eq(lmsApplicationPortals.definitionId, definitionId), eq(lmsApplicationPortals.id, id)),
      )
      .limit(1),
  );
  return presentPortal(ctx.tx, row);
}

export async function listPortals(
  ctx: ServiceContext,
  definitionId: number,
  page: Page,
): Promise<Paged<ApplicationPortalOut>> {
  await findDefinition(ctx.tx, definitionId);
  const where = eq(lmsApplicationPortals.definitionId, definitionId);
  const { count, rows } = await paged(
    ctx.tx.select({ n: countOf }).from(lmsApplicationPortals).where(where),
    ctx.tx
      .select()
      .from(lmsApplicationPortals)
      .where(where)
      .orderBy(asc(lmsApplicationPortals.title), asc(lmsApplicationPortals.id))
      .limit(page.pageSize)
      .offset(page.offset),
  );
  return { count, results: await presentPortals(ctx.tx, rows) };
}

export async function createPortal(
  ctx: ServiceContext,
  definitionId: number,
  data: ApplicationPortalCreate,
): Promise<ApplicationPortalOut> {
  await findDefinition(ctx.tx, definitionId);
  const now = ctx.clock.now();
  const row = await one(
    ctx.tx
      .insert(lmsApplicationPortals)
      .values({
        customerId: customerOf(ctx),
        definitionId,
        title: data.title,
        introduction: data.introduction,
        isOpen: data.is_open,
        kind: data.kind,
        feePence: data.fee_pence,
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
  );
  const out = await presentPortal(ctx.tx, row);
  await audit(ctx, 'created', PORTAL_CT, row.id, row.title, out);
  return out;
}

export async function updatePortal(
  ctx: ServiceContext,
  definitionId: number,
  id: number,
  data: Partial<ApplicationPortalUpdate>,
): Promise<ApplicationPortalOut> {
  await getPortal(ctx, definitionId, id);
  const row = await one(
    ctx.tx
      .update(lmsApplicationPortals)
      .set({
        title: data.title,
        introduction: data.introduction,
        isOpen: data.is_open,
        kind: data.kind,
        feePence: data.fee_pence,
        updatedAt: ctx.clock.now(),
      })
      .where(eq(lmsApplicationPortals.id, id))
      .returning(),
  );
  await audit(ctx, 'updated', PORTAL_CT, id, row.title, data);
  return presentPortal(ctx.tx, row);
}

// ---- Licences ----

export interface LicenceFilters {
  status: LicenceStatus[];
  definition: number | null;
  subGroup: number | null;
  group: number | null;
  /** Holder name or licence number, lower-cased prefix. */
  q: string | null;
  dob: string | null;
}

async function presentLicences(tx: Tx, rows: LicenceRow[]): Promise<LicenceOut[]> {
  const defs = await presentDefinitions(
    tx,
    rows.length
      ? await tx
          .select()
          .from(licenceDefinitions)
          .where(inArray(licenceDefinitions.id, [...new Set(rows.map((r) => r.definitionId))]))
      : [],
  );
  const holders = rows.length
    ? await tx
        .select({
          id: subjects.id,
          first: subjects.firstName,
          last: subjects.lastName,
          dob: subjects.dob,
        })
        .from(subjects)
        .where(inArray(subjects.id, [...new Set(rows.map((r) => r.holderId))]))
    : [];
  const events = rows.length
    ? await tx
        .select()
        .from(licenceEvents)
        .where(
          inArray(
            licenceEvents.licenceId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(licenceEvents.createdAt), asc(licenceEvents.id))
    : [];
  const cycles = await latestUpdateChecks(
    tx,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const def = defs.find((d) => d.id === r.definitionId);
    const holder = holders.find((h) => h.id === r.holderId);
    return {
      id: r.id,
      number: r.number,
      holder: r.holderId,
      holder_name: holder ? `${holder.first} ${holder.last}`.trim() : '',
      holder_dob: holder?.dob ?? null,
      group: def?.group ?? 0,
      group_name: def?.group_name ?? '',
      sub_group: def?.sub_group ?? 0,
      sub_group_name: def?.sub_group_name ?? '',
      definition: r.definitionId,
      definition_name: def?.name ?? '',
      status: r.status,
      status_label: LICENCE_STATUS_LABELS[r.status],
      actions: licenceActionsFor(r.status),
      issue_date: r.issueDate,
      expiry_date: r.expiryDate,
      conditions: r.conditions,
      events: events
        .filter((e) => e.licenceId === r.id)
        .map((e) => ({
          id: e.id,
          action: e.action,
          from_status: e.fromStatus,
          to_status: e.toStatus,
          reason: e.reason,
          actor: e.actorId,
          actor_name: e.actorName,
          created_at: iso(e.createdAt),
        })),
      update_service: cycles.get(r.id) ?? null,
      created_at: iso(r.createdAt),
      updated_at: iso(r.updatedAt),
      status_changed_at: r.statusChangedAt ? iso(r.statusChangedAt) : null,
    };
  });
}

/** The latest update service cycle check of each licence (update-service-cycles-job.ts). */
async function latestUpdateChecks(
  tx: Tx,
  ids: number[],
): Promise<Map<number, LicenceUpdateCheckOut>> {
  const out = new Map<number, LicenceUpdateCheckOut>();
  if (ids.length === 0) return out;
  const rows = await tx
    .select({
      licenceId: licenceUpdateChecks.licenceId,
      dueOn: licenceUpdateChecks.dueOn,
      caseId: licenceUpdateChecks.caseId,
      state: caseActivities.state,
      result: caseActivities.resultData,
    })
    .from(licenceUpdateChecks)
    .leftJoin(
      caseActivities,
      and(
        eq(caseActivities.customerId, licenceUpdateChecks.customerId),
        eq(caseActivities.id, licenceUpdateChecks.caseActivityId),
      ),
    )
    .where(inArray(licenceUpdateChecks.licenceId, ids))
    .orderBy(desc(licenceUpdateChecks.dueOn), desc(licenceUpdateChecks.id));
  for (const r of rows) {
    if (out.has(r.licenceId)) continue;
    const state = r.state ?? 'ca-pending';
    const status =
      typeof r.result?.certificate_status === 'string' ? r.result.certificate_status : null;
    const checked = typeof r.result?.checked_date === 'string' ? r.result.checked_date : null;
    out.set(r.licenceId, {
      due_on: r.dueOn,
      case: r.caseId,
      state,
      state_label: isCaseActivityState(state) ? CASE_ACTIVITY_STATE_LABELS[state] : state,
      certificate_status: status,
      certificate_status_meaning: status === null ? null : certificateStatusMeaning(status),
      checked_on: checked,
      new_information: status === 'NEW_INFO',
    });
  }
  return out;
}

async function presentLicence(tx: Tx, row: LicenceRow): Promise<LicenceOut> {
  const [out] = await presentLicences(tx, [row]);
  if (!out) throw new NotFoundError();
  return out;
}

export const findLicence = (tx: Tx, id: number) =>
  one(tx.select().from(licences).where(eq(licences.id, id)).limit(1));

export async function getLicence(ctx: ServiceContext, id: number): Promise<LicenceOut> {
  return presentLicence(ctx.tx, await findLicence(ctx.tx, id));
}

export async function listLicences(
  ctx: ServiceContext,
  page: Page,
  f: LicenceFilters,
): Promise<Paged<LicenceOut>> {
  const conds: (SQL | undefined)[] = [
    f.status.length ? inArray(licences.status, f.status) : undefined,
    f.definition === null ? undefined : eq(licences.definitionId, f.definition),
    f.subGroup === null ? undefined : eq(licenceDefinitions.subGroupId, f.subGroup),
    f.group === null ? undefined : eq(licenceSubGroups.groupId, f.group),
    f.dob === null ? undefined : eq(subjects.dob, f.dob),
    f.q === null
      ? undefined
      : sql`(lower(${licences.number}) like ${`${f.q}%`} or ${subjects.searchFull} like ${`${f.q}%`} or ${subjects.searchLast} like ${`${f.q}%`})`,
  ];
  const where = and(...conds);
  const { count, rows } = await paged(
    ctx.tx
      .select({ n: countOf })
      .from(licences)
      .innerJoin(licenceDefinitions, eq(licenceDefinitions.id, licences.definitionId))
      .innerJoin(licenceSubGroups, eq(licenceSubGroups.id, licenceDefinitions.subGroupId))
      .innerJoin(subjects, eq(subjects.id, licences.holderId))
      .where(where),
    ctx.tx
      .select({ l: licences })
      .from(licences)
      .innerJoin(licenceDefinitions, eq(licenceDefinitions.id, licences.definitionId))
      .innerJoin(licenceSubGroups, eq(licenceSubGroups.id, licenceDefinitions.subGroupId))
      .innerJoin(subjects, eq(subjects.id, licences.holderId))
      .where(where)
      .orderBy(desc(licences.issueDate), desc(licences.id))
      .limit(page.pageSize)
      .offset(page.offset),
  );
  return {
    count,
    results: await presentLicences(
      ctx.tx,
      rows.map((r) => r.l),
    ),
  };
}

/** Issues a licence: the next number in the council's format unless one is given (unique). */
export async function issueLicence(ctx: ServiceContext, data: LicenceCreate): Promise<LicenceOut> {
  const customerId = customerOf(ctx);
  const def = await findDefinition(ctx.tx, data.definition).catch(() => {
    throw new ValidationError({ definition: ['Invalid pk - object does not exist.'] });
  });
  await one(
    ctx.tx.select({ id: subjects.id }).from(subjects).where(eq(subjects.id, data.holder)),
  ).catch(() => {
    throw new ValidationError({ holder: ['Invalid pk - object does not exist.'] });
  });
  const sub = await findSubGroup(ctx.tx, def.subGroupId);
  const now = ctx.clock.now();
  const issueDate = data.issue_date ?? isoDate(now);
  // one number at a time per council: the next sequence is read under a transaction lock
  await ctx.tx.execute(sql`select pg_advisory_xact_lock(hashtext('licences'), ${customerId})`);
  let number = data.number;
  let sequence: number | null = null;
  if (number === undefined) {
    const [last] = await ctx.tx.select({ n: max(licences.sequence) }).from(licences);
    sequence = (last?.n ?? 0) + 1;
    number = formatLicenceNumber(DEFAULT_LICENCE_NUMBER_FORMAT, {
      year: Number(issueDate.slice(0, 4)),
      code: sub.code,
      sequence,
    });
  }
  const [taken] = await ctx.tx
    .select({ id: licences.id })
    .from(licences)
    .where(eq(licences.number, number))
    .limit(1);
  if (taken) throw new ValidationError({ number: [LICENCE_NUMBER_TAKEN] });
  const row = await one(
    ctx.tx
      .insert(licences)
      .values({
        customerId,
        definitionId: def.id,
        holderId: data.holder,
        number,
        sequence,
        status: 'active',
        issueDate,
        expiryDate: licenceExpiryDate(issueDate, def.durationYears),
        conditions: data.conditions,
        statusChangedAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
  );
  await addEvent(ctx, row, 'issue', null, 'active', '');
  const out = await presentLicence(ctx.tx, row);
  await audit(ctx, 'created', LICENCE_CT, row.id, row.number, { ...out, events: undefined });
  return out;
}

export async function updateLicenceConditions(
  ctx: ServiceContext,
  id: number,
  conditions: string,
): Promise<LicenceOut> {
  const before = await findLicence(ctx.tx, id);
  const row = await one(
    ctx.tx
      .update(licences)
      .set({ conditions, updatedAt: ctx.clock.now() })
      .where(eq(licences.id, id))
      .returning(),
  );
  await audit(ctx, 'updated', LICENCE_CT, id, row.number, {
    conditions: [before.conditions, conditions],
  });
  return presentLicence(ctx.tx, row);
}

/** Suspend, revoke, reinstate or surrender with a reason: 400 when the status forbids it. */
export async function actOnLicence(
  ctx: ServiceContext,
  id: number,
  action: LicenceAction,
  reason: string,
): Promise<LicenceOut> {
  const existing = await one(
    ctx.tx.select().from(licences).where(eq(licences.id, id)).limit(1).for('update'),
  );
  const to = licenceTransition(existing.status, action);
  if (to === null) {
    throw new ValidationError({
      non_field_errors: [licenceActionRefused(existing.status, action)],
    });
  }
  const now = ctx.clock.now();
  const row = await one(
    ctx.tx
      .update(licences)
      .set({ status: to, statusChangedAt: now, updatedAt: now })
      .where(eq(licences.id, id))
      .returning(),
  );
  await addEvent(ctx, row, action, existing.status, to, reason);
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'state_changed',
    contentType: LICENCE_CT,
    objectId: id,
    objectRepr: row.number,
    changes: { status: [existing.status, to], action, reason },
  });
  return presentLicence(ctx.tx, row);
}

async function addEvent(
  ctx: ServiceContext,
  row: LicenceRow,
  action: 'issue' | LicenceAction,
  from: LicenceStatus | null,
  to: LicenceStatus,
  reason: string,
): Promise<void> {
  await ctx.tx.insert(licenceEvents).values({
    customerId: row.customerId,
    licenceId: row.id,
    action,
    fromStatus: from,
    toStatus: to,
    reason,
    actorId: ctx.actor.id,
    actorName: ctx.actor.name.slice(0, 200),
    createdAt: ctx.clock.now(),
  });
}

async function audit(
  ctx: ServiceContext,
  verb: 'created' | 'updated',
  contentType: string,
  objectId: number,
  repr: string,
  changes: object,
): Promise<void> {
  await recordAudit(ctx.tx, ctx.actor, {
    verb,
    contentType,
    objectId,
    objectRepr: repr,
    changes: { ...changes },
  });
}
