import {
  type CaseRetentionOut,
  CRIMINAL_RECORD_CHECKS,
  DRIVING_CHECKS,
  type DueRedactionOut,
  ERASURE_RULE,
  ERASURE_RULE_NAME,
  RETENTION_RULE_CODES,
  type RedactionRule,
  type RetentionRuleCode,
  type RetentionSettings,
  type RetentionSettingsIn,
  RTW_CHECKS,
  redactionDueAt,
  retentionRule,
} from '@kestrel/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { diffChanges, recordAudit } from '../../platform/audit.js';
import { NotFoundError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import type { DocumentStorage } from '../../providers/storage/provider.js';
import { cases } from '../cases/cases.table.js';
import { recordCaseRedaction, redactActivityResult, redactDocument } from './redact.js';
import { caseRetention, retentionRedactions, retentionSettings } from './retention.table.js';

/** The audit's content types of a customer's retention settings and of a case's retention. */
export const SETTINGS_CT = 'retention.retentionsettings';
export const CASE_RETENTION_CT = 'retention.caseretention';

/** The customer's settings (defaults where it set none). */
export async function getSettings(tx: Tx, customerId: number): Promise<RetentionSettings> {
  const [row] = await tx
    .select()
    .from(retentionSettings)
    .where(eq(retentionSettings.customerId, customerId));
  return {
    inspector: row?.inspector ?? null,
    nextInspectionDate: row?.nextInspectionDate ?? null,
    months: row?.months ?? {},
  };
}

function settingsRecord(s: RetentionSettings): Record<string, unknown> {
  return { inspector: s.inspector, next_inspection_date: s.nextInspectionDate, ...s.months };
}

/** Replaces the customer's settings (a rule left out keeps its period); audited. */
export async function putSettings(
  ctx: ServiceContext,
  customerId: number,
  input: RetentionSettingsIn,
): Promise<RetentionSettings> {
  const before = await getSettings(ctx.tx, customerId);
  const months = { ...before.months };
  for (const r of input.rules) {
    if (r.months === retentionRule(r.code).defaultMonths) delete months[r.code];
    else months[r.code] = r.months;
  }
  const after: RetentionSettings = {
    inspector: input.inspector,
    nextInspectionDate: input.inspector === null ? null : input.next_inspection_date,
    months,
  };
  const values = {
    customerId,
    inspector: after.inspector,
    nextInspectionDate: after.nextInspectionDate,
    months: after.months,
    updatedAt: ctx.clock.now(),
  };
  await ctx.tx
    .insert(retentionSettings)
    .values(values)
    .onConflictDoUpdate({ target: retentionSettings.customerId, set: values });
  const changes = diffChanges(settingsRecord(before), settingsRecord(after));
  if (Object.keys(changes).length > 0) {
    await recordAudit(ctx.tx, ctx.actor, {
      verb: 'updated',
      contentType: SETTINGS_CT,
      objectId: customerId,
      objectRepr: 'Retention settings',
      changes,
    });
  }
  return after;
}

async function caseOf(tx: Tx, caseId: number) {
  const [c] = await tx
    .select({ id: cases.id, customerId: cases.customerId, subjectId: cases.subjectId })
    .from(cases)
    .where(eq(cases.id, caseId));
  if (!c) throw new NotFoundError();
  return c;
}

/** A case's hold, recorded end of employment and redactions (404 for another customer's). */
export async function getCaseRetention(tx: Tx, caseId: number): Promise<CaseRetentionOut> {
  const c = await caseOf(tx, caseId);
  const [r] = await tx
    .select()
    .from(caseRetention)
    .where(and(eq(caseRetention.customerId, c.customerId), eq(caseRetention.caseId, caseId)));
  const redactions = await tx
    .select()
    .from(retentionRedactions)
    .where(
      and(eq(retentionRedactions.customerId, c.customerId), eq(retentionRedactions.caseId, caseId)),
    )
    .orderBy(asc(retentionRedactions.redactedAt), asc(retentionRedactions.id));
  return {
    legal_hold: r?.legalHold ?? false,
    hold_reason: r?.holdReason ?? '',
    hold_set_at: r?.holdSetAt?.toISOString() ?? null,
    hold_set_by: r?.holdSetBy ?? '',
    employment_ended_on: r?.employmentEndedOn ?? null,
    redactions: redactions.map((x) => ({
      id: x.id,
      target: x.target,
      target_id: x.targetId,
      rule: redactionRule(x.rule),
      rule_name: ruleName(x.rule),
      removed: x.removed,
      redacted_at: x.redactedAt.toISOString(),
    })),
  };
}

/** A redaction's recorded rule as the contract names it (an erasure's is `erasure`). */
function redactionRule(code: string): RedactionRule {
  if (code === ERASURE_RULE) return ERASURE_RULE;
  return (RETENTION_RULE_CODES as readonly string[]).includes(code)
    ? (code as RetentionRuleCode)
    : 'closed-cases';
}

function ruleName(code: string): string {
  if (code === ERASURE_RULE) return ERASURE_RULE_NAME;
  const known = (RETENTION_RULE_CODES as readonly string[]).includes(code);
  return known ? retentionRule(code as RetentionRuleCode).name : code;
}

async function upsertCaseRetention(
  ctx: ServiceContext,
  c: { id: number; customerId: number },
  set: Partial<typeof caseRetention.$inferInsert>,
) {
  const at = ctx.clock.now();
  await ctx.tx
    .insert(caseRetention)
    .values({ customerId: c.customerId, caseId: c.id, ...set, updatedAt: at })
    .onConflictDoUpdate({
      target: [caseRetention.customerId, caseRetention.caseId],
      set: { ...set, updatedAt: at },
    });
}

/** Sets (or lifts) a case's legal hold with a reason; audited. */
export async function setLegalHold(
  ctx: ServiceContext,
  caseId: number,
  hold: boolean,
  reason: string,
): Promise<CaseRetentionOut> {
  const c = await caseOf(ctx.tx, caseId);
  const before = await getCaseRetention(ctx.tx, caseId);
  await upsertCaseRetention(ctx, c, {
    legalHold: hold,
    holdReason: reason,
    holdSetAt: hold ? ctx.clock.now() : null,
    holdSetBy: hold ? ctx.actor.name.slice(0, 200) : '',
  });
  await recordAudit(ctx.tx, ctx.actor, {
    verb: hold ? 'legal_hold_set' : 'legal_hold_lifted',
    contentType: CASE_RETENTION_CT,
    objectId: caseId,
    objectRepr: hold ? `Legal hold set on case ${caseId}` : `Legal hold lifted on case ${caseId}`,
    changes: { legal_hold: [before.legal_hold, hold], reason },
  });
  return getCaseRetention(ctx.tx, caseId);
}

/** Records when the subject's employment ended (right-to-work evidence counts from it). */
export async function setEmploymentEnd(
  ctx: ServiceContext,
  caseId: number,
  endedOn: string | null,
): Promise<CaseRetentionOut> {
  const c = await caseOf(ctx.tx, caseId);
  const before = await getCaseRetention(ctx.tx, caseId);
  await upsertCaseRetention(ctx, c, { employmentEndedOn: endedOn });
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'updated',
    contentType: CASE_RETENTION_CT,
    objectId: caseId,
    objectRepr: `End of employment on case ${caseId}`,
    changes: { employment_ended_on: [before.employment_ended_on, endedOn] },
  });
  return getCaseRetention(ctx.tx, caseId);
}

/** One item some rule will redact, and when. */
export interface DueItem {
  customerId: number;
  caseId: number;
  subjectId: number;
  subjectName: string;
  target: 'document' | 'activity' | 'case';
  targetId: number;
  what: string;
  rule: RetentionRuleCode;
  dueAt: Date;
}

const list = (codes: readonly string[]) =>
  sql.join(
    codes.map((c) => sql`${c}`),
    sql`, `,
  );

/** Rows of a raw query's result (the drivers answer `{ rows }`). */
function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  if (typeof result === 'object' && result !== null && 'rows' in result) {
    const { rows } = result;
    if (Array.isArray(rows)) return rows as T[];
  }
  return [];
}

const toDate = (v: Date | string | null): Date | null =>
  v === null ? null : v instanceof Date ? v : new Date(v);

/**
 * Every item of the customer's that a rule will redact by `horizon` (not yet redacted under
 * that rule, its case under no legal hold), soonest first. The job redacts those due by now; the
 * "due soon" page shows those due in the next 30 days.
 */
export async function findDue(
  tx: Tx,
  customerId: number,
  settings: RetentionSettings,
  horizon: Date,
): Promise<DueItem[]> {
  const out: DueItem[] = [];
  const push = (
    row: { case_id: number; subject_id: number; first_name: string; last_name: string },
    target: DueItem['target'],
    targetId: number,
    what: string,
    rule: RetentionRuleCode,
    basis: Date | null,
  ) => {
    const dueAt = redactionDueAt(settings, rule, basis);
    if (dueAt === null || dueAt > horizon) return;
    out.push({
      customerId,
      caseId: row.case_id,
      subjectId: row.subject_id,
      subjectName: `${row.first_name} ${row.last_name}`.trim(),
      target,
      targetId,
      what,
      rule,
      dueAt,
    });
  };
  const notHeld = sql`not exists (select 1 from case_retention h
    where h.customer_id = c.customer_id and h.case_id = c.id and h.legal_hold)`;

  // activities' result content: criminal-record checks after the decision, driving checks after
  // the case's completion
  const activities = rowsOf<{
    id: number;
    case_id: number;
    subject_id: number;
    first_name: string;
    last_name: string;
    kind: string;
    name: string;
    completed_at: Date | string | null;
    decision: string | null;
  }>(
    await tx.execute(sql`
      select a.id, a.case_id, c.subject_id, s.first_name, s.last_name, t.code as kind, t.name,
        c.completed_at, c.decision
      from case_activities a
      join activity_types t on t.id = a.activity_type_id
      join cases c on c.customer_id = a.customer_id and c.id = a.case_id
      join subjects s on s.customer_id = c.customer_id and s.id = c.subject_id
      where a.customer_id = ${customerId}
        and t.code in (${list([...CRIMINAL_RECORD_CHECKS, ...DRIVING_CHECKS])})
        and c.completed_at is not null
        and ${notHeld}
        and not exists (select 1 from retention_redactions x where x.customer_id = a.customer_id
          and x.target = 'activity' and x.target_id = a.id)`),
  );
  for (const a of activities) {
    const criminal = (CRIMINAL_RECORD_CHECKS as readonly string[]).includes(a.kind);
    const rule = criminal ? 'criminal-record-content' : 'driving-results';
    const basis = criminal && a.decision === null ? null : toDate(a.completed_at);
    push(a, 'activity', a.id, `${a.name} result`, rule, basis);
  }

  // documents' files: certificate images (criminal-record checks), right-to-work evidence (after
  // the end of employment), identity document images (the rest, after the case's completion)
  const documents = rowsOf<{
    id: number;
    case_id: number;
    subject_id: number;
    first_name: string;
    last_name: string;
    document_type: string;
    kind: string | null;
    completed_at: Date | string | null;
    decision: string | null;
    employment_ended_on: string | null;
  }>(
    await tx.execute(sql`
      select d.id, d.case_id, c.subject_id, s.first_name, s.last_name, d.document_type,
        t.code as kind, c.completed_at, c.decision, r.employment_ended_on
      from case_documents d
      join cases c on c.customer_id = d.customer_id and c.id = d.case_id
      join subjects s on s.customer_id = c.customer_id and s.id = c.subject_id
      left join case_activities a on a.customer_id = d.customer_id and a.id = d.case_activity_id
      left join activity_types t on t.id = a.activity_type_id
      left join case_retention r on r.customer_id = c.customer_id and r.case_id = c.id
      where d.customer_id = ${customerId}
        and jsonb_array_length(d.pages) > 0
        and ${notHeld}`),
  );
  for (const d of documents) {
    const kind = d.kind ?? '';
    const what = `Document: ${d.document_type}`;
    if ((CRIMINAL_RECORD_CHECKS as readonly string[]).includes(kind)) {
      const basis = d.decision === null ? null : toDate(d.completed_at);
      push(d, 'document', d.id, what, 'criminal-record-images', basis);
    } else if ((RTW_CHECKS as readonly string[]).includes(kind)) {
      const ended = d.employment_ended_on ? new Date(`${d.employment_ended_on}T00:00:00Z`) : null;
      push(d, 'document', d.id, what, 'rtw-images', ended);
    } else {
      push(d, 'document', d.id, what, 'identity-images', toDate(d.completed_at));
    }
  }

  // cancelled and archived cases: everything but the case's own row, after they closed
  const closed = rowsOf<{
    id: number;
    subject_id: number;
    first_name: string;
    last_name: string;
    closed_at: Date | string;
  }>(
    await tx.execute(sql`
      select c.id, c.subject_id, s.first_name, s.last_name,
        coalesce(c.archived_at, c.completed_at, c.updated_at) as closed_at
      from cases c
      join subjects s on s.customer_id = c.customer_id and s.id = c.subject_id
      where c.customer_id = ${customerId}
        and (c.state = 'cancelled' or c.archived_at is not null)
        and ${notHeld}
        and not exists (select 1 from retention_redactions x where x.customer_id = c.customer_id
          and x.target = 'case' and x.target_id = c.id)`),
  );
  for (const c of closed) {
    push(
      { ...c, case_id: c.id },
      'case',
      c.id,
      'The whole case',
      'closed-cases',
      toDate(c.closed_at),
    );
  }
  return out.sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || a.caseId - b.caseId);
}

export function presentDue(items: DueItem[]): DueRedactionOut[] {
  return items.map((i) => ({
    case_id: i.caseId,
    subject_id: i.subjectId,
    subject_name: i.subjectName,
    target: i.target,
    target_id: i.targetId,
    what: i.what,
    rule: i.rule,
    rule_name: retentionRule(i.rule).name,
    due_at: i.dueAt.toISOString(),
  }));
}

/** The case data tables a purge empties (a closed case keeps its own row and its redactions). */
const CASE_DATA_TABLES = [
  'case_basic_details',
  'case_birth_details',
  'case_other_names',
  'case_addresses',
  'case_passports',
  'case_driving_licences',
  'case_dbs_update_details',
  'case_dbs_details',
  'case_rtw_details',
] as const;

async function held(tx: Tx, customerId: number, caseId: number): Promise<boolean> {
  const [r] = await tx
    .select({ hold: caseRetention.legalHold })
    .from(caseRetention)
    .where(and(eq(caseRetention.customerId, customerId), eq(caseRetention.caseId, caseId)))
    .for('share');
  return r?.hold ?? false;
}

/**
 * Purges a closed case: every document's files, every activity's result content (what a
 * criminal-record check must keep stays), its case data, the online identity check's profile
 * and session; the case's row, its activities' and
 * documents' rows and their redaction records stay. Once per case.
 */
export async function purgeCase(
  ctx: ServiceContext,
  storage: DocumentStorage,
  c: { customerId: number; id: number; subjectId: number },
): Promise<boolean> {
  // the case's row locked (skip locked: another run holds it), then whether it was purged
  const locked = rowsOf<{ id: number }>(
    await ctx.tx.execute(sql`select id from cases
      where customer_id = ${c.customerId} and id = ${c.id} for update skip locked`),
  );
  if (locked.length === 0) return false;
  const [done] = await ctx.tx
    .select({ id: retentionRedactions.id })
    .from(retentionRedactions)
    .where(
      and(
        eq(retentionRedactions.customerId, c.customerId),
        eq(retentionRedactions.target, 'case'),
        eq(retentionRedactions.targetId, c.id),
        eq(retentionRedactions.rule, 'closed-cases'),
      ),
    );
  if (done) return false;
  const removed: string[] = [];
  const docs = rowsOf<{ id: number }>(
    await ctx.tx.execute(sql`select id from case_documents
      where customer_id = ${c.customerId} and case_id = ${c.id} and jsonb_array_length(pages) > 0
      order by id`),
  );
  const acts = rowsOf<{ id: number }>(
    await ctx.tx.execute(sql`select id from case_activities
      where customer_id = ${c.customerId} and case_id = ${c.id} order by id`),
  );
  for (const d of docs) {
    if (await redactDocument(ctx, storage, d.id, 'closed-cases')) removed.push(`document ${d.id}`);
  }
  for (const a of acts) {
    if (await redactActivityResult(ctx, a.id, 'closed-cases')) removed.push(`activity ${a.id}`);
  }
  for (const table of CASE_DATA_TABLES) {
    const gone = rowsOf<{ n: number }>(
      await ctx.tx.execute(sql`with d as (delete from ${sql.identifier(table)}
        where customer_id = ${c.customerId} and case_id = ${c.id} returning 1)
        select count(*)::int as n from d`),
    );
    if ((gone[0]?.n ?? 0) > 0) removed.push(table);
  }
  // the online identity check's row stays (its status, dates), its profile of the person (names,
  // date of birth, address) and the identity session go, as an erasure's
  // the app's clock (the run's), not the database's: one clock for every time a run writes
  const idv = rowsOf<{ case_id: number }>(
    await ctx.tx.execute(sql`update case_online_idv set id_profile = null, ibv_session = null,
        updated_at = ${ctx.clock.now().toISOString()}
      where customer_id = ${c.customerId} and case_id = ${c.id}
        and (id_profile is not null or ibv_session is not null)
      returning case_id`),
  );
  if (idv.length > 0) removed.push('case_online_idv');
  const id = await recordCaseRedaction(
    ctx,
    c,
    'closed-cases',
    removed.length > 0 ? removed : ['nothing left'],
  );
  // recorded meanwhile (the row lock makes it unlikely): undo this run's work
  if (id === null) throw new Error(`case ${c.id} was purged by another run`);
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'redacted',
    contentType: 'cases.case',
    objectId: c.id,
    objectRepr: `Case ${c.id} purged (closed-cases)`,
    changes: { redacted: { reason: 'closed-cases', removed } },
  });
  return true;
}

/**
 * Redacts one due item in the caller's transaction, unless its case is now under a legal hold:
 * true when it was redacted (false: held, gone, locked elsewhere or already redacted).
 */
export async function redactDueItem(
  ctx: ServiceContext,
  storage: DocumentStorage,
  item: Pick<DueItem, 'customerId' | 'caseId' | 'subjectId' | 'target' | 'targetId' | 'rule'>,
): Promise<boolean> {
  if (await held(ctx.tx, item.customerId, item.caseId)) return false;
  if (item.target === 'document') {
    return (await redactDocument(ctx, storage, item.targetId, item.rule)) !== null;
  }
  if (item.target === 'activity') {
    return (await redactActivityResult(ctx, item.targetId, item.rule)) !== null;
  }
  return purgeCase(ctx, storage, {
    customerId: item.customerId,
    id: item.caseId,
    subjectId: item.subjectId,
  });
}
