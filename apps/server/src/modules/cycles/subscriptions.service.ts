import {
  canTransitionCase,
  cycleTexts,
  deriveCaseState,
  nextDueAfter,
  SUBSCRIPTION_MESSAGES,
  SUBSCRIPTION_STATE_LABELS,
  SUBSCRIPTION_STATES,
  type SubscriptionBulkCreate,
  type SubscriptionCreate,
  type SubscriptionOut,
  type SubscriptionState,
  subscriptionTransition,
} from '@kestrel/domain';
import { and, asc, eq, gte, inArray, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import {
  API_MESSAGES,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
} from '../../platform/errors.js';
import { queryDate, queryDateEnd, queryIds, queryString } from '../../platform/query-params.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import { initialActivityState } from '../activities/activity-state.js';
import { CASE_CT, caseMoveError, caseRepr } from '../cases/cases.service.js';
import { cases } from '../cases/cases.table.js';
import { inviteSubject } from '../cases/commands/open-case.js';
import type { CaseMailDeps } from '../cases/commands/subject-email.js';
import { customerEntitlements } from '../customers/customers.table.js';
import { chargeSubscriptionPeriod } from '../payments/case-payment.js';
import { invoicedOn } from '../payments/payment-methods.js';
import { processes } from '../processes/processes.table.js';
import { type SubjectRow, subjectColumns } from '../subjects/subjects.service.js';
import { subjects } from '../subjects/subjects.table.js';
import { type CycleRow, cycleChecks, findCycle, quoteCycle } from './cycles.service.js';
import { cycles, subscriptionCharges, subscriptionPeriods, subscriptions } from './cycles.table.js';

export const SUBSCRIPTION_CT = 'subscriptions.subscription';

type SubscriptionRow = typeof subscriptions.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The columns of one subscription as the API shows it (joined with its cycle and subject). */
const listColumns = {
  s: subscriptions,
  cycleName: cycles.name,
  requirements: cycles.requirements,
  repeatInterval: cycles.repeatInterval,
  repeatUnit: cycles.repeatUnit,
  billingInterval: cycles.billingInterval,
  billingTriggered: cycles.billingTriggered,
  processId: processes.id,
  processName: processes.name,
  firstName: subjects.firstName,
  lastName: subjects.lastName,
  email: subjects.email,
  casesOpened: sql<number>`(select count(*)::int from subscription_periods p
    where p.customer_id = ${subscriptions.customerId} and p.subscription_id = ${subscriptions.id})`.mapWith(
    Number,
  ),
};

function baseQuery(tx: Tx) {
  return tx
    .select(listColumns)
    .from(subscriptions)
    .innerJoin(
      cycles,
      and(eq(cycles.customerId, subscriptions.customerId), eq(cycles.id, subscriptions.cycleId)),
    )
    .innerJoin(
      processes,
      and(eq(processes.customerId, cycles.customerId), eq(processes.id, cycles.processId)),
    )
    .innerJoin(
      subjects,
      and(
        eq(subjects.customerId, subscriptions.customerId),
        eq(subjects.id, subscriptions.subjectId),
      ),
    );
}

type Joined = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

function present(r: Joined): SubscriptionOut {
  const s = r.s;
  const texts = cycleTexts({
    repeat_interval: r.repeatInterval,
    repeat_unit: r.repeatUnit,
    billing_interval: r.billingInterval,
    billing_triggered: r.billingTriggered,
  });
  return {
    id: s.id,
    subject: { id: s.subjectId, first_name: r.firstName, last_name: r.lastName, email: r.email },
    cycle: {
      id: s.cycleId,
      name: r.cycleName,
      requirements: r.requirements,
      repeat_text: texts.repeat_text,
      billing_text: texts.billing_text,
    },
    process: { id: r.processId, name: r.processName },
    state: s.state,
    state_display: SUBSCRIPTION_STATE_LABELS[s.state],
    next_due_at: s.state === 'ended' ? null : iso(s.nextDueAt),
    next_billing_at: s.state === 'ended' ? null : iso(s.nextBillingAt),
    last_case: s.lastCaseId,
    cases_opened: r.casesOpened,
    started_at: s.startedAt.toISOString(),
    paused_at: iso(s.pausedAt),
    ended_at: iso(s.endedAt),
    created_at: s.createdAt.toISOString(),
  };
}

/** One subscription as the API shows it; 404 when not the actor's customer's. */
export async function getSubscription(ctx: ServiceContext, id: number): Promise<SubscriptionOut> {
  const [r] = await baseQuery(ctx.tx).where(eq(subscriptions.id, id)).limit(1);
  if (!r) throw new NotFoundError();
  return present(r);
}

/** The conditions of `?cycle=&process=&subject=&state=&due_after=&due_before=` (400 when bad). */
export function subscriptionFilters(query: unknown): SQL[] {
  const conds: SQL[] = [];
  const cycleIds = queryIds(query, 'cycle');
  if (cycleIds) conds.push(inArray(subscriptions.cycleId, cycleIds));
  const processIds = queryIds(query, 'process');
  if (processIds) conds.push(inArray(cycles.processId, processIds));
  const subjectIds = queryIds(query, 'subject');
  if (subjectIds) conds.push(inArray(subscriptions.subjectId, subjectIds));
  const state = queryString(query, 'state');
  if (state !== undefined && state !== '') {
    const states = state.split(',');
    const known = (v: string): v is SubscriptionState =>
      (SUBSCRIPTION_STATES as readonly string[]).includes(v);
    const bad = states.find((v) => !known(v));
    if (bad !== undefined) throw ValidationError.invalidChoice('state', bad);
    conds.push(inArray(subscriptions.state, states.filter(known)));
  }
  const after = queryDate(query, 'due_after');
  if (after) conds.push(gte(subscriptions.nextDueAt, after));
  const before = queryDateEnd(query, 'due_before');
  if (before) conds.push(lt(subscriptions.nextDueAt, before));
  return conds;
}

/** A page of subscriptions, the next due first (ended ones, with no date, last). */
export async function listSubscriptions(
  ctx: ServiceContext,
  conds: SQL[],
  page: { pageSize: number; offset: number },
): Promise<{ count: number; results: SubscriptionOut[] }> {
  const where = and(...conds);
  const [total] = await ctx.tx
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(subscriptions)
    .innerJoin(
      cycles,
      and(eq(cycles.customerId, subscriptions.customerId), eq(cycles.id, subscriptions.cycleId)),
    )
    .where(where);
  const rows = await baseQuery(ctx.tx)
    .where(where)
    .orderBy(sql`${subscriptions.nextDueAt} asc nulls last`, asc(subscriptions.id))
    .limit(page.pageSize)
    .offset(page.offset);
  return { count: total?.n ?? 0, results: rows.map(present) };
}

/** A subject of the actor's customer (RLS); 404 otherwise. */
export async function findSubject(tx: Tx, id: number): Promise<SubjectRow> {
  const [s] = await tx.select(subjectColumns).from(subjects).where(eq(subjects.id, id)).limit(1);
  if (!s) throw new NotFoundError();
  return s;
}

async function activeCycle(tx: Tx, id: number): Promise<CycleRow> {
  const [c] = await tx.select().from(cycles).where(eq(cycles.id, id)).limit(1);
  if (!c) throw ValidationError.doesNotExist('cycle', id);
  if (!c.isActive) throw ValidationError.of('cycle', SUBSCRIPTION_MESSAGES.inactiveCycle);
  return c;
}

/** Inserts a subscription unless the subject has one open to the cycle (then null). */
async function insertSubscription(
  ctx: ServiceContext,
  cycle: CycleRow,
  subject: SubjectRow,
  startsAt: Date,
): Promise<number | null> {
  const now = ctx.clock.now();
  const [row] = await ctx.tx
    .insert(subscriptions)
    .values({
      customerId: cycle.customerId,
      cycleId: cycle.id,
      subjectId: subject.id,
      state: 'active',
      startedAt: startsAt,
      nextDueAt: startsAt,
      nextBillingAt: startsAt,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) return null;
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'created',
    contentType: SUBSCRIPTION_CT,
    objectId: row.id,
    objectRepr: `${subject.firstName} ${subject.lastName}: ${cycle.name}`,
    changes: { cycle: cycle.id, subject: subject.id, next_due_at: startsAt.toISOString() },
  });
  return row.id;
}

const startOf = (ctx: ServiceContext, startsAt: string | undefined) =>
  startsAt === undefined ? ctx.clock.now() : new Date(startsAt);

/** POST /api/subjects/{id}/subscriptions/. */
export async function subscribeSubject(
  ctx: ServiceContext,
  subjectId: number,
  body: SubscriptionCreate,
): Promise<SubscriptionOut> {
  if (ctx.actor.customerId === null) throw new PermissionDeniedError();
  const subject = await findSubject(ctx.tx, subjectId);
  if (subject.archivedAt) throw ValidationError.of('subject', API_MESSAGES.subjectArchived);
  const cycle = await activeCycle(ctx.tx, body.cycle);
  const id = await insertSubscription(ctx, cycle, subject, startOf(ctx, body.starts_at));
  if (id === null) throw ValidationError.of('cycle', SUBSCRIPTION_MESSAGES.alreadySubscribed);
  return getSubscription(ctx, id);
}

/** POST /api/subscriptions/bulk/: each subject once; those already subscribed are skipped. */
export async function subscribeMany(
  ctx: ServiceContext,
  body: SubscriptionBulkCreate,
): Promise<{ created: SubscriptionOut[]; skipped: number[] }> {
  if (ctx.actor.customerId === null) throw new PermissionDeniedError();
  const cycle = await activeCycle(ctx.tx, body.cycle);
  const ids = [...new Set(body.subjects)];
  const found = await ctx.tx.select(subjectColumns).from(subjects).where(inArray(subjects.id, ids));
  const errors: Record<string, string[]> = {};
  body.subjects.forEach((id, i) => {
    const s = found.find((x) => x.id === id);
    if (!s) errors[`subjects.${i}`] = [`Invalid pk "${id}" - object does not exist.`];
    else if (s.archivedAt) errors[`subjects.${i}`] = [SUBSCRIPTION_MESSAGES.archivedSubject];
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const startsAt = startOf(ctx, body.starts_at);
  const created: number[] = [];
  const skipped: number[] = [];
  for (const id of ids) {
    const subject = found.find((x) => x.id === id);
    if (!subject) continue;
    const made = await insertSubscription(ctx, cycle, subject, startsAt);
    if (made === null) skipped.push(id);
    else created.push(made);
  }
  const rows =
    created.length === 0
      ? []
      : await baseQuery(ctx.tx)
          .where(inArray(subscriptions.id, created))
          .orderBy(asc(subscriptions.id));
  return { created: rows.map(present), skipped };
}

/**
 * Pause, resume or end (400 when the state does not allow it). Resuming moves a due date that
 * passed while paused to the schedule's next one: a pause skips the periods it covered.
 */
export async function actOnSubscription(
  ctx: ServiceContext,
  id: number,
  action: 'pause' | 'resume' | 'end',
): Promise<SubscriptionOut> {
  const [s] = await ctx.tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.id, id))
    .limit(1)
    .for('update');
  if (!s) throw new NotFoundError();
  const to = subscriptionTransition(s.state, action);
  if (to === null) {
    throw ValidationError.of('state', SUBSCRIPTION_MESSAGES.notAllowed(action, s.state));
  }
  const now = ctx.clock.now();
  const changes: Partial<SubscriptionRow> = { state: to, updatedAt: now };
  if (action === 'pause') changes.pausedAt = now;
  if (action === 'end') {
    changes.endedAt = now;
    changes.nextDueAt = null;
    changes.nextBillingAt = null;
  }
  if (action === 'resume') {
    changes.pausedAt = null;
    const cycle = await findCycle(ctx.tx, null, s.cycleId);
    if (s.nextDueAt && s.nextDueAt.getTime() <= now.getTime()) {
      changes.nextDueAt = nextDueAfter(s.startedAt, now, cycle.repeatInterval, cycle.repeatUnit);
    }
    if (s.nextBillingAt && s.nextBillingAt.getTime() <= now.getTime()) {
      changes.nextBillingAt = nextDueAfter(
        s.startedAt,
        now,
        cycle.billingInterval,
        cycle.billingTriggered,
      );
    }
  }
  await ctx.tx.update(subscriptions).set(changes).where(eq(subscriptions.id, s.id));
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'state_changed',
    contentType: SUBSCRIPTION_CT,
    objectId: s.id,
    objectRepr: `subscription ${s.id}`,
    changes: { state: [s.state, to] },
  });
  return getSubscription(ctx, s.id);
}

// ------------------------------------------------------------------------------- the due job

/** Subscriptions claimed per transaction by the due job. */
export const DUE_BATCH = 50;

/**
 * Opens the case of a subscription's period: the cycle's process with the cycle's requirements
 * (one activity each, the process's configuration of that type), and the subject invited as
 * openCase does. Not charged per case: its subscription's billing periods
 * are (billPeriod).
 */
export async function openCycleCase(
  ctx: ServiceContext,
  mail: CaseMailDeps,
  cycle: CycleRow,
  subject: SubjectRow,
): Promise<number> {
  const customerId = cycle.customerId;
  const [process] = await ctx.tx
    .select()
    .from(processes)
    .where(eq(processes.id, cycle.processId))
    .limit(1);
  if (!process) throw new NotFoundError();
  const checks = await cycleChecks(ctx.tx, cycle);
  if (checks.length === 0) throw ValidationError.of('cycle', 'This cycle has no requirements.');
  const now = ctx.clock.now();
  const states = checks.map((c) => initialActivityState(c.code));
  const derived = deriveCaseState(states);
  if (derived !== 'pending' && !canTransitionCase('pending', derived)) {
    throw caseMoveError('pending', derived);
  }
  const [c] = await ctx.tx
    .insert(cases)
    .values({
      customerId,
      processId: process.id,
      subjectId: subject.id,
      state: derived,
      createdById: null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!c) throw new NotFoundError();
  await ctx.tx.insert(caseActivities).values(
    checks.map((q, i) => ({
      customerId,
      caseId: c.id,
      activityTypeId: q.activityTypeId,
      state: states[i] ?? 'ca-pending',
      position: i,
      config: q.config,
      createdAt: now,
      updatedAt: now,
    })),
  );
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'created',
    contentType: CASE_CT,
    objectId: c.id,
    objectRepr: caseRepr(c.id, subject),
    changes: {
      process: process.id,
      subject: subject.id,
      state: derived,
      activities: checks.map((q) => q.code),
      cycle: cycle.id,
    },
  });
  // not charged per case: the subscription's billing periods pay for it (billPeriod)
  if (process.sendInvitation) {
    await inviteSubject(ctx, mail, subject, c.id, process.invitationMessage);
  }
  return c.id;
}

/**
 * Records a billing period of a subscription once (unique per subscription and period): an
 * invoice line when the customer's pricebook in force says invoiced, else a charge to the
 * customer's default card (chargeSubscriptionPeriod: a product payment of no case and its job).
 * Nothing when the cycle has no price.
 */
async function billPeriod(ctx: ServiceContext, s: SubscriptionRow, cycle: CycleRow, at: Date) {
  const quote = await quoteCycle(ctx.tx, s.customerId, at, cycle);
  if (quote.total_pence <= 0) return;
  const invoiced = await invoicedOn(ctx.tx, s.customerId, at.toISOString().slice(0, 10));
  const [charge] = await ctx.tx
    .insert(subscriptionCharges)
    .values({
      customerId: s.customerId,
      subscriptionId: s.id,
      period: at,
      amountPence: quote.total_pence,
      kind: invoiced ? 'invoice' : 'card',
      pricebookId: quote.pricebook_id,
      description: `${cycle.name} (subscription ${s.id}, ${at.toISOString().slice(0, 10)})`,
      createdAt: ctx.clock.now(),
    })
    .onConflictDoNothing()
    .returning();
  // recorded now (not by an earlier run): a card period is charged, once
  if (charge?.kind === 'card') {
    await chargeSubscriptionPeriod(ctx, {
      customerId: s.customerId,
      chargeId: charge.id,
      amountPence: charge.amountPence,
      description: charge.description,
    });
  }
}

/** Billing periods recorded at most per run for one subscription (a long stop catches up). */
const MAX_BILLED = 60;

async function periodCase(tx: Tx, subscriptionId: number, period: Date): Promise<number | null> {
  const [p] = await tx
    .select({ caseId: subscriptionPeriods.caseId })
    .from(subscriptionPeriods)
    .where(
      and(
        eq(subscriptionPeriods.subscriptionId, subscriptionId),
        eq(subscriptionPeriods.period, period),
      ),
    );
  return p?.caseId ?? null;
}

/**
 * Why a subscription's periods can open no case now (its subject archived, its process made
 * inactive, no requirement left), or null when they can. Such a period is passed over: neither
 * its case opened nor its billing period billed.
 */
async function passOverReason(
  ctx: ServiceContext,
  s: SubscriptionRow,
  cycle: CycleRow,
): Promise<{ subject: SubjectRow; reason: string | null }> {
  const subject = await findSubject(ctx.tx, s.subjectId);
  const [process] = await ctx.tx
    .select({ isActive: processes.isActive })
    .from(processes)
    .where(eq(processes.id, cycle.processId));
  const checks = await cycleChecks(ctx.tx, cycle);
  const reason = subject.archivedAt
    ? SUBSCRIPTION_MESSAGES.archivedSubject
    : !process?.isActive
      ? 'Inactive process.'
      : checks.length === 0
        ? 'This cycle has no requirements.'
        : null;
  return { subject, reason };
}

async function auditPassedOver(
  ctx: ServiceContext,
  s: SubscriptionRow,
  changes: Record<string, string>,
): Promise<void> {
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'state_changed',
    contentType: SUBSCRIPTION_CT,
    objectId: s.id,
    objectRepr: `subscription ${s.id}`,
    changes,
  });
}

/**
 * The case of one period, once: nothing when the period already has its case; else the case
 * opened and the period recorded in the same transaction (the unique index on subscription and
 * period: a concurrent run recording it too fails and rolls its case back). A period passed over
 * (`reason`) opens nothing, audited.
 */
async function openPeriodCase(
  ctx: ServiceContext,
  mail: CaseMailDeps,
  s: SubscriptionRow,
  cycle: CycleRow,
  period: Date,
  { subject, reason }: { subject: SubjectRow; reason: string | null },
): Promise<void> {
  if ((await periodCase(ctx.tx, s.id, period)) !== null) return;
  if (reason !== null) {
    await auditPassedOver(ctx, s, { period: period.toISOString(), skipped: reason });
    return;
  }
  const caseId = await openCycleCase(ctx, mail, cycle, subject);
  await ctx.tx
    .insert(subscriptionPeriods)
    .values({ customerId: s.customerId, subscriptionId: s.id, period, caseId });
}

/**
 * One transaction's share of a customer's due subscriptions: claims up to `DUE_BATCH` active
 * ones due now (`for update skip locked`: another process's claim is passed over, never
 * waited on), and for each records the period (unique: a period already recorded opens
 * nothing), opens its case, bills the billing periods due, and moves the dates on. Returns how
 * many were claimed (0: none left).
 */
export async function runDueBatch(ctx: ServiceContext, mail: CaseMailDeps): Promise<number> {
  const now = ctx.clock.now();
  const customerId = ctx.actor.customerId;
  if (customerId === null) throw new PermissionDeniedError();
  const claimed = await ctx.tx
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.customerId, customerId),
        eq(subscriptions.state, 'active'),
        sql`(${lte(subscriptions.nextDueAt, now)} or ${lte(subscriptions.nextBillingAt, now)})`,
      ),
    )
    .orderBy(asc(subscriptions.nextDueAt), asc(subscriptions.id))
    .limit(DUE_BATCH)
    .for('update', { skipLocked: true });
  for (const s of claimed) {
    const cycle = await findCycle(ctx.tx, null, s.cycleId);
    const changes: Partial<SubscriptionRow> = { updatedAt: now };
    const passOver = await passOverReason(ctx, s, cycle);
    const { reason } = passOver;
    const due = s.nextDueAt;
    if (due && due.getTime() <= now.getTime()) {
      await openPeriodCase(ctx, mail, s, cycle, due, passOver);
      // one case however many periods passed (a restart after a long stop): then the next one
      changes.nextDueAt = nextDueAfter(s.startedAt, now, cycle.repeatInterval, cycle.repeatUnit);
      changes.lastCaseId = (await periodCase(ctx.tx, s.id, due)) ?? s.lastCaseId;
    }
    let billing = s.nextBillingAt;
    for (let n = 0; billing && billing.getTime() <= now.getTime() && n < MAX_BILLED; n += 1) {
      // a period that can open no case is not billed either
      if (reason === null) await billPeriod(ctx, s, cycle, billing);
      else
        await auditPassedOver(ctx, s, { billing_period: billing.toISOString(), skipped: reason });
      billing = nextDueAfter(s.startedAt, billing, cycle.billingInterval, cycle.billingTriggered);
    }
    if (billing && billing.getTime() <= now.getTime()) {
      billing = nextDueAfter(s.startedAt, now, cycle.billingInterval, cycle.billingTriggered);
    }
    changes.nextBillingAt = billing;
    await ctx.tx.update(subscriptions).set(changes).where(eq(subscriptions.id, s.id));
  }
  return claimed.length;
}

/**
 * Customers with a subscription due (the system's read across tenants): only those holding the
 * `cycles` entitlement (a customer whose entitlement was taken away has its subscriptions kept
 * but nothing comes due until it is given back).
 */
export async function customersDue(tx: Tx, now: Date): Promise<number[]> {
  const rows = await tx
    .selectDistinct({ id: subscriptions.customerId })
    .from(subscriptions)
    .innerJoin(
      customerEntitlements,
      and(
        eq(customerEntitlements.customerId, subscriptions.customerId),
        eq(customerEntitlements.entitlement, 'cycles'),
      ),
    )
    .where(
      and(
        eq(subscriptions.state, 'active'),
        sql`(${lte(subscriptions.nextDueAt, now)} or ${lte(subscriptions.nextBillingAt, now)})`,
      ),
    );
  return rows.map((r) => r.id);
}

/**
 * The case portal's `subscriptions` (spec point 3): the open (active or paused) subscriptions of
 * the case's subject, each with its cycle's requirements. Runs in the subject's context (its
 * own subscriptions by policy) or staff's.
 */
export async function portalSubscriptions(
  tx: Tx,
  caseId: number,
): Promise<{ id: number; cycle: { id: number; requirements: string[] } }[]> {
  const rows = await tx
    .select({ id: subscriptions.id, cycleId: cycles.id, requirements: cycles.requirements })
    .from(subscriptions)
    .innerJoin(
      cycles,
      and(eq(cycles.customerId, subscriptions.customerId), eq(cycles.id, subscriptions.cycleId)),
    )
    .innerJoin(
      cases,
      and(
        eq(cases.customerId, subscriptions.customerId),
        eq(cases.subjectId, subscriptions.subjectId),
      ),
    )
    .where(and(eq(cases.id, caseId), sql`${subscriptions.state} <> 'ended'`))
    .orderBy(asc(subscriptions.id));
  return rows.map((r) => ({ id: r.id, cycle: { id: r.cycleId, requirements: r.requirements } }));
}
